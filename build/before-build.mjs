// electron-builder hook (electron-builder.yml: beforeBuild). The packaged app (out/) is
// fully bundled by electron-vite and has no dependencies, so there is nothing to install or
// rebuild. Returning false also tells electron-builder that node_modules are handled here:
// without it, finding none in out/, it would pack the project's (the server's) instead.
export default async function beforeBuild() {
  return false;
}
