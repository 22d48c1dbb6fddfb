/**
 * Which tools are exec or exfiltration sinks, judged from the words of the tool's name. A blob
 * is whatever some earlier tool returned (a web page, a file an attacker wrote), so handing it
 * whole to a shell, a file write or an outbound message lets injected content act or leave
 * unseen by the model. The lists err on denying: `passref.allowedTools` re-allows a tool.
 */

/** Always sinks, wherever they appear in the name: they run code or open a connection. */
const EXEC_WORDS = new Set([
  "shell",
  "bash",
  "sh",
  "zsh",
  "fish",
  "ksh",
  "csh",
  "powershell",
  "pwsh",
  "cmd",
  "terminal",
  "exec",
  "execute",
  "subprocess",
  "spawn",
  "eval",
  "evaluate",
  "interpreter",
  "repl",
  "ssh",
  "curl",
  "wget",
]);

/**
 * Sinks unless the name starts with a reading verb (`get_email`, `list_messages`, `read_post`
 * read; `send_email`, `post_message`, `email` send). Grouped by what they do with the content.
 */
const SINK_WORDS = new Set([
  // outbound network and messaging
  "send",
  "post",
  "reply",
  "notify",
  "broadcast",
  "publish",
  "upload",
  "share",
  "push",
  "tweet",
  "mail",
  "email",
  "sendmail",
  "smtp",
  "sms",
  "message",
  "messages",
  "chat",
  "comment",
  "webhook",
  "webhooks",
  "gist",
  "slack",
  "discord",
  "telegram",
  "whatsapp",
  "http",
  "https",
  "request",
  "requests",
  "navigate",
  "goto",
  "fill",
  // writes that persist content where it can later run or be read by others
  "write",
  "edit",
  "editor",
  "append",
  "overwrite",
  "save",
  "create",
  "put",
  "update",
  "upsert",
  "insert",
  "replace",
  "modify",
  "patch",
  "command",
  "commands",
  // writes into a store, a path or a repository (server-memory's add_observations, move_file)
  "add",
  "set",
  "store",
  "remember",
  "memorize",
  "record",
  "move",
  "rename",
  "copy",
  "commit",
  "merge",
]);

const READ_VERBS = new Set([
  "get",
  "list",
  "read",
  "search",
  "find",
  "fetch",
  "view",
  "show",
  "query",
  "count",
  "describe",
  "lookup",
  "inspect",
  "stat",
  "download",
  "cat",
  "head",
  "tail",
  "grep",
  "browse",
  "retrieve",
  "recall",
  "peek",
  "preview",
  "explain",
  "summarize",
  "analyze",
  "parse",
  "validate",
  "diff",
  "compare",
  "check",
  "load",
  "open",
  "info",
]);

/** Words that, with `fetch`, mean "request this URL" (a plain `fetch` or `web_fetch` sends data out). */
const URL_WORDS = new Set(["url", "web", "http", "https", "page", "uri"]);

/** Browser automation steps that put text into a page (browser_type, browser_press_key). */
const BROWSER_INPUT = new Set(["type", "press", "key", "fill", "evaluate", "navigate", "upload", "run", "code"]);

/** The words of a tool name: server prefix dropped, split on `_ - . / :` spaces and camelCase. */
export function toolWords(tool: string): string[] {
  const name = String(tool ?? "");
  const bare = name.includes("__") ? name.slice(name.lastIndexOf("__") + 2) || name : name;
  return bare
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s_\-./:]+/)
    .filter(Boolean);
}

/** True when `tool` executes code or sends/writes data, so pass-by-reference must not feed it. */
export function isSinkTool(tool: string): boolean {
  const words = toolWords(tool);
  if (words.length === 0) return false;
  if (words.some((w) => EXEC_WORDS.has(w))) return true;
  if (words[0] === "run") return true; // run_command, run_script, run_shell_command
  if (words.includes("fetch") && (words.length === 1 || words.some((w) => URL_WORDS.has(w)))) return true;
  if (words.includes("browser") && words.some((w) => BROWSER_INPUT.has(w))) return true; // typing into a page sends it
  if (READ_VERBS.has(words[0]!)) return false;
  return words.some((w) => SINK_WORDS.has(w));
}
