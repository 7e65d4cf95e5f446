// The floor of the request-path bench: what a user would write by hand with nothing but Node.
// Read the JSONL dataset, put each row's fields into the same chat body the CLI sends, POST it
// with fetch from N workers, parse the reply's JSON verdict and append one line per row.
//   node out/bench/requestPathFloor.js <baseURL> <data.jsonl> <body.json> <concurrency> <out.jsonl>
// body.json holds the request body with "\u0001field\u0001" where a row's field goes.
import { createWriteStream, readFileSync } from 'node:fs';

async function main(): Promise<void> {
  const [baseURL, dataFile, bodyFile, concurrencyText, outFile] = process.argv.slice(2);
  if (!baseURL || !dataFile || !bodyFile || !concurrencyText || !outFile) throw new Error('usage: requestPathFloor <baseURL> <data> <body.json> <concurrency> <out>');
  const rows = readFileSync(dataFile, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
  const body = readFileSync(bodyFile, 'utf8');
  const out = createWriteStream(outFile);
  let next = 0;
  let scored = 0;
  const worker = async () => {
    while (next < rows.length) {
      const row = rows[next++]!;
      const text = body.replace(/\\u0001(\w+)\\u0001/g, (_, field: string) => JSON.stringify(String(row[field] ?? '')).slice(1, -1));
      const res = await fetch(`${baseURL}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
      const json = (await res.json()) as { choices: { message: { content: string } }[] };
      const verdict = JSON.parse(json.choices[0]!.message.content) as { score?: unknown };
      if (typeof verdict.score === 'number') scored++;
      out.write(`${JSON.stringify({ ...row, score: verdict.score })}\n`);
    }
  };
  await Promise.all(Array.from({ length: Number(concurrencyText) }, worker));
  await new Promise<void>((resolve) => out.end(resolve));
  if (scored !== rows.length) throw new Error(`scored ${scored} of ${rows.length} rows`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? e}\n`);
  process.exitCode = 1;
});
