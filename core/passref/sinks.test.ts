import { isSinkTool, toolWords } from "./sinks";

describe("toolWords", () => {
  it("drops server prefixes and splits on separators and camelCase", () => {
    expect(toolWords("filesystem__write_file")).toEqual(["write", "file"]);
    expect(toolWords("mcp__github__create_issue")).toEqual(["create", "issue"]);
    expect(toolWords("runShellCommand")).toEqual(["run", "shell", "command"]);
    expect(toolWords("HTTPPost")).toEqual(["http", "post"]);
    expect(toolWords("web.fetch/url-v2")).toEqual(["web", "fetch", "url", "v2"]);
  });
});

describe("isSinkTool", () => {
  it.each([
    "bash",
    "Bash",
    "run_shell_command",
    "shell",
    "exec",
    "execute_sql",
    "terminal",
    "subprocess_run",
    "spawn_process",
    "powershell",
    "sh",
    "zsh",
    "run_command",
    "run_script",
    "ssh_exec",
    "write_file",
    "filesystem__write_file",
    "edit_file",
    "create_file",
    "append_file",
    "Write",
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "str_replace_editor",
    "str_replace_based_edit_tool",
    "apply_patch",
    "http_post",
    "http_request",
    "make_request",
    "fetch",
    "fetch_url",
    "WebFetch",
    "curl",
    "wget",
    "upload_file",
    "s3__put_object",
    "send_email",
    "email",
    "mail",
    "send_message",
    "post_message",
    "send_slack_message",
    "slack__post_message",
    "discord_send",
    "telegram_send_message",
    "trigger_webhook",
    "publish_package",
    "create_gist",
    "github__create_issue",
    "add_issue_comment",
    "browser_type",
    "browser_navigate",
    "browser_evaluate",
    "git_push",
    "memory__add_observations",
    "create_entities",
    "create_relations",
    "move_file",
    "rename_file",
    "copy_file",
    "set_value",
    "store_memory",
    "remember",
    "git_commit",
    "merge_pull_request",
  ])("%s is a sink", (tool) => {
    expect(isSinkTool(tool)).toBe(true);
  });

  it.each([
    "read_file",
    "filesystem__read_text_file",
    "read_multiple_files",
    "list_directory",
    "directory_tree",
    "search_files",
    "get_file_info",
    "Read",
    "Grep",
    "Glob",
    "Task",
    "WebSearch",
    "rescuer_fetch",
    "recall_result",
    "summarize",
    "analyze_csv",
    "jq_query",
    "memory__search_nodes",
    "memory__read_graph",
    "get_email",
    "list_messages",
    "read_post",
    "search_emails",
    "get_pull_request",
    "list_webhooks",
    "echo",
    "count_tokens",
    "diff_text",
    "",
    "__",
  ])("%s is not a sink", (tool) => {
    expect(isSinkTool(tool)).toBe(false);
  });
});
