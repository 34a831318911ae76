'use strict';
// Which prebuilt native module fits this machine. The package carries one module per
// platform it supports, each in `native/` under the name napi-rs gives it
// (`party-games.<platform>.node`, e.g. `linux-x64-gnu`); `npm run build` on another machine
// adds that machine's. Shared by index.js (to load it) and scripts/build.mjs (to name the file it writes).

/** The C library of a Linux process: `gnu` (glibc) or `musl`. */
function linuxLibc() {
  const report = typeof process.report?.getReport === 'function' ? process.report.getReport() : null;
  const header = typeof report === 'string' ? JSON.parse(report).header : report?.header;
  return header?.glibcVersionRuntime ? 'gnu' : 'musl';
}

/** This machine's platform name, as napi-rs spells it: `linux-x64-gnu`, `darwin-arm64`, `win32-x64-msvc`. */
function platformName() {
  const { platform, arch } = process;
  if (platform === 'linux') return `${platform}-${arch}-${linuxLibc()}`;
  if (platform === 'win32') return `${platform}-${arch}-msvc`;
  return `${platform}-${arch}`;
}

/** The module's file name for this machine, relative to the package's folder. */
function nativeFile() {
  return `native/party-games.${platformName()}.node`;
}

module.exports = { platformName, nativeFile };
