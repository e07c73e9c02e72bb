// The first thing every entry point of subshare runs (bin/subshare.js, scripts/start.mjs), in
// syntax any Node parses, so that an old Node gets one line naming the version needed instead of
// a syntax error or a failure deep inside a dependency. The root package.json's `engines` says the
// same (a test keeps them in step).
export var MINIMUM_NODE = '20.19.0';

/** The line to print when `version` is older than MINIMUM_NODE, else undefined. */
export function nodeVersionProblem(version) {
  var have = version.split('.').map(Number);
  var need = MINIMUM_NODE.split('.').map(Number);
  for (var i = 0; i < 3; i++) {
    if (have[i] > need[i]) return undefined;
    if (have[i] < need[i]) {
      return 'subshare needs Node.js ' + MINIMUM_NODE + ' or newer (20.19+, 22 or 24 LTS); this is Node.js ' + version + '.';
    }
  }
  return undefined;
}

var problem = nodeVersionProblem(process.versions.node);
if (problem) {
  console.error(problem);
  process.exit(1);
}
