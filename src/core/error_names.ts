/**
 * Error names as they appear in tool output: exception classes of common languages, errno names,
 * signals, Node error codes, Python tracebacks, panics and test-runner failure markers.
 *
 * @module
 */

const NAME =
  /\b(?:[A-Z][A-Za-z0-9]*(?:Error|Exception|Exit|Interrupt|Fault)|E(?:NOENT|ACCES|PERM|EXIST|NOTDIR|ISDIR|INVAL|NOSPC|NOMEM|ADDRINUSE|ADDRNOTAVAIL|CONNREFUSED|CONNRESET|CONNABORTED|TIMEDOUT|PIPE|AGAIN|BADF|MFILE|ROFS|NOTEMPTY|HOSTUNREACH|NETUNREACH|NOTFOUND|BUSY|XDEV|LOOP|NAMETOOLONG|NOTCONN|DQUOT)|SIG(?:KILL|TERM|SEGV|ABRT|INT|BUS|FPE|PIPE|HUP|ILL|QUIT|ALRM|TRAP)|ERR_[A-Z0-9_]{3,40}|Traceback|FAILED|FAIL|panicked|panic(?=:)|Segmentation fault|Permission denied|No such file or directory|command not found)\b/g;

// Cheap pre-check: a text without any of these cannot contain a name.
const TRIGGER =
  /Error|Exception|Exit|Interrupt|Fault|\bE[A-Z]{3}|SIG|ERR_|Traceback|FAIL|panicked|fault|denied|No such|not found/;

// Test-runner markers that passing runs print too (a retried test, a listing of expected
// failures): they count only in the output of a call that failed.
const FAILURE_MARKERS: ReadonlySet<string> = new Set(["FAILED", "FAIL"]);

/**
 * The distinct error names in `text`, in order of first appearance. Test-failure markers count
 * only when `failed` says the call itself failed.
 */
export function errorNames(text: string, failed: boolean): string[] {
  if (!TRIGGER.test(text)) return [];
  const names = new Set<string>();
  for (const [name] of text.matchAll(NAME)) {
    if (failed || !FAILURE_MARKERS.has(name)) names.add(name);
  }
  return [...names];
}
