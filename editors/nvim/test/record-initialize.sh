#!/usr/bin/env bash
# Records the `initialize` parameters a real Neovim sends to `ludeme lsp`, for the end-to-end test
# that drives the server as Neovim does (tests/lsp_e2e.rs). Neovim starts headless with nothing but
# this plugin, opens a .kif file, and talks to a `ludeme` that is a script copying its standard
# input to a file before handing it to the real server. The workspace and process id become the
# placeholders the test fills in.
#
#   NVIM=/path/to/nvim LUDEME_BIN=/path/to/ludeme editors/nvim/test/record-initialize.sh
set -euo pipefail
source "$(dirname "$0")/paths.sh"
version="$("$nvim" --version | head -n 1 | sed -E 's/^NVIM v([0-9]+\.[0-9]+).*/\1/')"
fixture="$repository/tests/fixtures/lsp/neovim-$version-initialize.json"

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/bin" "$scratch/workspace"
cat >"$scratch/bin/ludeme" <<EOF
#!/usr/bin/env bash
tee "$scratch/sent" | "$ludeme" "\$@"
EOF
chmod +x "$scratch/bin/ludeme"
printf '(role x)\n' >"$scratch/workspace/game.kif"
touch "$scratch/workspace/ludeme.toml"
cat >"$scratch/open.lua" <<'EOF'
vim.lsp.enable('ludeme')
vim.cmd.edit(arg[1])
local attached = vim.wait(30000, function()
  local client = vim.lsp.get_clients({ bufnr = 0, name = 'ludeme' })[1]
  return client ~= nil and client.initialized
end, 50)
if not attached then
  io.stderr:write('the server did not attach\n')
  os.exit(1)
end
vim.cmd('qa!')
EOF
# The server's root is the folder of the file's nearest ludeme.toml, whatever the current folder.
PATH="$scratch/bin:$PATH" "$nvim" --clean --headless --cmd "set rtp^=$plugin" \
  -l "$scratch/open.lua" "$scratch/workspace/game.kif"

python3 - "$scratch/sent" "$scratch/workspace" "$fixture" "$("$nvim" --version | head -n 1)" <<'PY'
import json, re, sys
sent, workspace, fixture, version = sys.argv[1:]
data = open(sent, "rb").read()
header = re.match(rb"Content-Length: (\d+)\r\n\r\n", data)
message = json.loads(data[header.end():header.end() + int(header.group(1))])
assert message["method"] == "initialize", message["method"]
params = message["params"]
assert params["rootUri"] == "file://" + workspace, params["rootUri"]
params["rootUri"] = "${ROOT_URI}"
params["rootPath"] = "${ROOT_PATH}"
params["workspaceFolders"] = [{"uri": "${ROOT_URI}", "name": "${ROOT_PATH}"}]
params["processId"] = "${PROCESS_ID}"
note = (f"What {version} sent as `initialize` params to `ludeme lsp` on opening a .kif file, "
        "recorded by editors/nvim/test/record-initialize.sh (headless, nothing but the plugin, "
        "`vim.lsp.enable('ludeme')`). The workspace and process id are placeholders that "
        "tests/lsp_e2e.rs fills in; keys are sorted. This field is no parameter: the test removes it.")
body = json.dumps(params, indent=2, sort_keys=True, ensure_ascii=False)
with open(fixture, "w") as out:
    out.write('{\n  "_recorded": ' + json.dumps(note, ensure_ascii=False) + ",\n" + body[2:] + "\n")
print(f"wrote {fixture}")
PY
