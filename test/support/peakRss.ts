// Preloaded into a CLI child (`node --require`) by tests that bound its memory: at exit it writes
// the process's peak resident set size (KiB, from process.resourceUsage) to the file named in
// $JUDGE_STUDIO_TEST_PEAK_RSS. The CLI itself knows nothing of it.
import * as fs from 'node:fs';

const file = process.env.JUDGE_STUDIO_TEST_PEAK_RSS;
if (file) process.on('exit', () => fs.writeFileSync(file, String(process.resourceUsage().maxRSS)));
