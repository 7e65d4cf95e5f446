// Where each member of a template's panel (`model.judges`) is asked, in the editor: its endpoint as
// a URL, a name from the `judgeStudio.endpoints` setting, or the configured endpoint. The configured
// endpoint's headers go only to its own origin; keys are looked up per origin by the caller.
import { originOf } from './origin';

export interface PanelMemberPlan {
  model: string;
  baseURL: string;
  /** The configured endpoint's headers when the member is at its origin, else none. */
  headers: Record<string, string>;
}

export type PanelPlan = { ok: true; members: PanelMemberPlan[] } | { ok: false; message: string };

export function planPanel(
  judges: readonly { model: string; endpoint?: string }[],
  c: { baseUrl: string; headers: Record<string, string>; endpoints: Readonly<Record<string, string>> },
): PanelPlan {
  const configured = originOf(c.baseUrl);
  const members: PanelMemberPlan[] = [];
  for (const j of judges) {
    let url: string;
    if (j.endpoint === undefined) {
      if (!configured.ok) return { ok: false, message: `panel judge ${j.model} names no endpoint and judgeStudio.endpoint.baseUrl is not set; give it an \`endpoint\` or set the base URL` };
      url = c.baseUrl;
    } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(j.endpoint)) {
      url = j.endpoint;
    } else {
      const named = c.endpoints[j.endpoint];
      if (named === undefined) return { ok: false, message: `panel judge ${j.model}: no endpoint named "${j.endpoint}" in the judgeStudio.endpoints setting` };
      url = named;
    }
    const origin = originOf(url);
    if (!origin.ok) return { ok: false, message: `panel judge ${j.model}: ${origin.error}` };
    members.push({ model: j.model, baseURL: url, headers: configured.ok && configured.origin === origin.origin ? c.headers : {} });
  }
  return { ok: true, members };
}
