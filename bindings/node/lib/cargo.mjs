// `cargo build --release` of a native module, shared by `npm run build` and the
// `party-games-addon` command.

import { spawnSync } from 'node:child_process';

/**
 * Runs `cargo build --release ARGS` in `cwd` (cargo's own target folder: the crate's,
 * or `CARGO_TARGET_DIR` as the caller set it) and returns the path of the shared library
 * cargo reports for the target `ours(target, message)` picks.
 */
export function cargoBuild(args, cwd, ours) {
  const run = spawnSync('cargo', ['build', '--release', ...args, '--message-format=json-render-diagnostics'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (run.error) {
    if (run.error.code === 'ENOENT') throw new Error('party-games: building a native module needs cargo (a Rust toolchain) on PATH');
    throw run.error;
  }
  if (run.status !== 0) throw new Error(`cargo build exited with ${run.status}`);
  let library;
  for (const line of run.stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const msg = JSON.parse(line);
    if (msg.reason === 'compiler-artifact' && msg.target.kind.includes('cdylib') && ours(msg.target, msg)) {
      library = msg.filenames.find((f) => /\.(so|dylib|dll)$/.test(f));
    }
  }
  if (!library) throw new Error('cargo did not report the native library');
  return library;
}
