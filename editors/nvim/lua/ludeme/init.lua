-- The commands that run the `ludeme` command line on the current game and show what it prints
-- in a scratch buffer, and the per-buffer setup of the game file types.
local M = {}

--- The file types of the plugin; each is also the name of its tree-sitter parser.
M.filetypes = { 'egg', 'ludi', 'gdl', 'hrf' }

local comment_strings = { egg = '# %s', ludi = '; %s', gdl = '; %s', hrf = '% %s' }

--- The binary the language server is started with (`cmd` of `vim.lsp.config.ludeme`), so a user
--- who points the server at another build runs the same build from the commands.
function M.binary()
  local config = vim.lsp.config and vim.lsp.config.ludeme
  local cmd = config and config.cmd
  if type(cmd) == 'table' and type(cmd[1]) == 'string' then
    return cmd[1]
  end
  return 'ludeme'
end

local function show(title, text, filetype)
  vim.cmd('botright new')
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  pcall(vim.api.nvim_buf_set_name, buf, title)
  local lines = vim.split(text, '\n', { plain = true })
  if lines[#lines] == '' then
    table.remove(lines)
  end
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  if filetype then
    vim.bo[buf].filetype = filetype
  end
  return buf
end

--- Runs `ludeme SUBCOMMAND FILE ARGS...` on the current buffer's file (written first if it has
--- changes, since the command line reads the file) and shows the output in a scratch buffer.
--- @param subcommand string[] the words before the file, e.g. { 'fmt', '--to', 'infix', '--stdout' }
--- @param args string[] words after the file
--- @param opts? { filetype?: string, on_done?: fun(buf: integer?) }
function M.run(subcommand, args, opts)
  opts = opts or {}
  local file = vim.api.nvim_buf_get_name(0)
  if file == '' or vim.bo.buftype ~= '' then
    vim.notify('ludeme: this buffer is not a game file', vim.log.levels.WARN)
    return
  end
  vim.cmd('silent update')
  local command = { M.binary() }
  vim.list_extend(command, subcommand)
  table.insert(command, file)
  vim.list_extend(command, args)
  local root = vim.fs.root(file, { 'ludeme.toml', '.git' }) or vim.fs.dirname(file)
  local title = string.format('ludeme://%s/%s', subcommand[1], vim.fs.basename(file))
  local function on_exit(result)
    vim.schedule(function()
      -- Status 2 is a usage or I/O failure; 1 can be a finding about the game, with a report.
      if result.code == 2 or vim.trim(result.stdout or '') == '' then
        vim.notify(
          'ludeme ' .. subcommand[1] .. ' failed: ' .. vim.trim(result.stderr or ''),
          vim.log.levels.ERROR
        )
        if opts.on_done then
          opts.on_done(nil)
        end
        return
      end
      local text = result.stdout
      if vim.trim(result.stderr or '') ~= '' then
        text = text .. '\n' .. result.stderr
      end
      local buf = show(title, text, opts.filetype)
      if opts.on_done then
        opts.on_done(buf)
      end
    end)
  end
  local system_opts = { text = true, cwd = root, env = { NO_COLOR = '1' } }
  -- vim.system raises when the binary cannot be started (not installed, not executable).
  local ok, started = pcall(vim.system, command, system_opts, on_exit)
  if not ok then
    vim.notify('ludeme: cannot run ' .. command[1] .. ': ' .. tostring(started), vim.log.levels.ERROR)
  end
end

--- Shows the details a server code lens carries (probe verdict, nearest games, playout speed,
--- random-play findings): its own Markdown when it has some, else its fields, one per line.
--- @param command lsp.Command
function M.show_lens(command)
  local details = (command.arguments or {})[1]
  local lines = { '# ' .. command.title, '' }
  if type(details) == 'table' and type(details.markdown) == 'string' then
    vim.list_extend(lines, vim.split(details.markdown, '\n', { plain = true }))
  elseif type(details) == 'table' then
    local keys = vim.tbl_keys(details)
    table.sort(keys)
    for _, key in ipairs(keys) do
      if key ~= 'uri' then
        local value = details[key]
        local text = type(value) == 'table' and vim.json.encode(value) or tostring(value)
        table.insert(lines, string.format('- %s: %s', (key:gsub('_', ' ')), text))
      end
    end
  end
  return show('ludeme://' .. command.command, table.concat(lines, '\n'), 'markdown')
end

--- The buffer-local setup of a game file: tree-sitter highlighting and folds when the parser is
--- built (see build.sh), comments for `gc`, and indentation.
function M.setup_buffer(buf)
  local filetype = vim.bo[buf].filetype
  vim.bo[buf].commentstring = comment_strings[filetype] or vim.bo[buf].commentstring
  if vim.treesitter.language.add(filetype) then
    vim.treesitter.start(buf, filetype)
    for _, win in ipairs(vim.fn.win_findbuf(buf)) do
      vim.wo[win][0].foldmethod = 'expr'
      vim.wo[win][0].foldexpr = 'v:lua.vim.treesitter.foldexpr()'
      -- Folds are offered, not applied: a game opens unfolded.
      vim.wo[win][0].foldlevel = 99
    end
  end
  local has_nvim_treesitter = pcall(require, 'nvim-treesitter')
  if has_nvim_treesitter then
    -- nvim-treesitter reads the grammars' indents.scm.
    vim.bo[buf].indentexpr = "v:lua.require'nvim-treesitter'.indentexpr()"
  elseif filetype == 'ludi' or filetype == 'gdl' then
    vim.bo[buf].lisp = true
  end
  vim.bo[buf].autoindent = true
end

return M
