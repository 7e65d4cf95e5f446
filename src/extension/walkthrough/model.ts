// Which walkthrough steps the work already in a workspace has done, whatever way it was done (the
// palette, a CodeLens, a notification's button, an earlier session, the CLI). Pure: the facts
// come from the workspace (walkthrough/index.ts), the steps are the package.json walkthrough's.

/** The walkthrough's step ids; each ticks on the context key `judgeStudio.walkthrough.<id>`. */
export const WALKTHROUGH_STEPS = ['write', 'preview', 'endpoint', 'selection', 'dataset', 'calibrate'] as const;
export type WalkthroughStep = (typeof WALKTHROUGH_STEPS)[number];

export function contextKey(step: WalkthroughStep): string {
  return `judgeStudio.walkthrough.${step}`;
}

/** What the workspace shows of earlier work. */
export interface WorkFacts {
  /** A `.judge` template exists in the workspace (snapshots under `.judge-studio/` do not count). */
  templates: boolean;
  /** A Preview view is or was open in this workspace. */
  previewSeen: boolean;
  /** A judge endpoint is set where a run reads it (user settings, or a trusted workspace's). */
  endpoint: boolean;
  /** Kinds of the run history's entries: `run` (one sample), `batch` (a dataset). */
  history: ReadonlySet<string>;
  /** A Calibration or Review view is or was open, or a labels file exists. */
  calibrationSeen: boolean;
}

/** The steps done by the work `facts` describe. */
export function stepsDone(facts: WorkFacts): WalkthroughStep[] {
  const done: Record<WalkthroughStep, boolean> = {
    write: facts.templates,
    preview: facts.previewSeen,
    endpoint: facts.endpoint,
    selection: facts.history.has('run'),
    dataset: facts.history.has('batch'),
    calibrate: facts.calibrationSeen,
  };
  return WALKTHROUGH_STEPS.filter((s) => done[s]);
}

/** The `type` of each history line (`{"type":"run",…}` per line); lines that are not JSON objects are skipped. */
export function historyKinds(text: string): Set<string> {
  const kinds = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (value && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string') kinds.add((value as { type: string }).type);
    } catch {
      // a bad line is the history reader's to report (run/history.ts)
    }
  }
  return kinds;
}

/** Webview view types (as the tab API names them, possibly prefixed) that show the step was taken. */
export function stepOfView(viewType: string): WalkthroughStep | undefined {
  if (/judgeStudio\.preview$/.test(viewType)) return 'preview';
  if (/judgeStudio\.(calibration|review)$/.test(viewType)) return 'calibrate';
  if (/judgeStudio\.run$/.test(viewType)) return 'selection';
  return undefined;
}
