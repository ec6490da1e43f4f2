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

--- Replaces the text of a read-only scratch buffer.
local function set_text(buf, text)
  local lines = vim.split(text, '\n', { plain = true })
  if lines[#lines] == '' then
    table.remove(lines)
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
end

--- A new scratch buffer (no file, wiped when hidden) in the window `split` opens.
local function scratch(split, title, filetype)
  vim.cmd(split)
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  pcall(vim.api.nvim_buf_set_name, buf, title)
  if filetype then
    vim.bo[buf].filetype = filetype
  end
  return buf
end

local function show(title, text, filetype)
  local buf = scratch('botright new', title, filetype)
  set_text(buf, text)
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

--- The folder a game's commands run in and `:LudemePlay` serves: the project's (the folder of its
--- ludeme.toml, else of .git), else the game's own folder.
function M.root(file)
  return vim.fs.root(file, { 'ludeme.toml', '.git' }) or vim.fs.dirname(file)
end

--- The page's address in what `ludeme serve` printed ("ludeme serve: the games of F at
--- http://127.0.0.1:PORT/"), or nil while it has not printed it yet.
--- @param output string
--- @return string?
function M.serve_url(output)
  for line in vim.gsplit(output, '\n', { plain = true }) do
    local url = line:match('%sat (https?://[^%s/]+/)%s*$')
    if url then
      return url
    end
  end
  return nil
end

--- Percent-encodes as JavaScript's encodeURIComponent does.
local function encode_component(text)
  return (text:gsub("[^%w%-_%.!~%*'%(%)]", function(char)
    return string.format('%%%02X', string.byte(char))
  end))
end

--- The address of one game on the page served for `folder`: the page names a game by its path
--- under the folder in the fragment. Nil when the file is not under the folder.
--- @param page string the served page, e.g. http://127.0.0.1:41234/
--- @param folder string
--- @param file string
--- @return string?
function M.game_url(page, folder, file)
  folder = vim.fs.normalize(folder):gsub('/$', '')
  file = vim.fs.normalize(file)
  if file:sub(1, #folder + 1) ~= folder .. '/' then
    return nil
  end
  local base = page:gsub('#.*$', '')
  if base:sub(-1) ~= '/' then
    base = base .. '/'
  end
  return base .. '#' .. encode_component(file:sub(#folder + 2))
end

--- Running `ludeme serve` processes by folder: { process, url?, waiting = { callbacks } }.
M.servers = {}

--- Calls `callback(url, err)` with the page of `ludeme serve FOLDER --port 0`, started once per
--- folder and stopped when Neovim exits.
function M.serve(folder, callback)
  local server = M.servers[folder]
  if server and server.url then
    return callback(server.url)
  end
  if server then
    table.insert(server.waiting, callback)
    return
  end
  server = { waiting = { callback }, output = '', errors = '' }
  M.servers[folder] = server
  local function finish(url, err)
    local waiting = server.waiting
    server.waiting = {}
    vim.schedule(function()
      for _, waiter in ipairs(waiting) do
        waiter(url, err)
      end
    end)
  end
  local command = { M.binary(), 'serve', folder, '--port', '0' }
  local ok, process = pcall(vim.system, command, {
    text = true,
    cwd = folder,
    env = { NO_COLOR = '1' },
    stdout = function(_, data)
      if data and not server.url then
        server.output = server.output .. data
        server.url = M.serve_url(server.output)
        if server.url then
          finish(server.url)
        end
      end
    end,
    stderr = function(_, data)
      server.errors = server.errors .. (data or '')
    end,
  }, function(result)
    if M.servers[folder] == server then
      M.servers[folder] = nil
    end
    if not server.url then
      finish(nil, string.format('ludeme serve stopped (status %s): %s', result.code, vim.trim(server.errors)))
    end
  end)
  if not ok then
    M.servers[folder] = nil
    finish(nil, 'cannot run ' .. command[1] .. ': ' .. tostring(process))
    return
  end
  server.process = process
end

--- Stops every server `:LudemePlay` started.
function M.stop_servers()
  for folder, server in pairs(M.servers) do
    if server.process then
      server.process:kill('sigterm')
    end
    M.servers[folder] = nil
  end
end

--- The current buffer's game file, written first if it has changes, or nil after saying why not.
local function current_game()
  local file = vim.api.nvim_buf_get_name(0)
  if file == '' or vim.bo.buftype ~= '' then
    vim.notify('ludeme: this buffer is not a game file', vim.log.levels.WARN)
    return nil
  end
  vim.cmd('silent update')
  return vim.fs.normalize(vim.fn.fnamemodify(file, ':p'))
end

local function open(target)
  local _, err = vim.ui.open(target)
  if err then
    vim.notify('ludeme: cannot open ' .. target .. ': ' .. err, vim.log.levels.ERROR)
  end
end

--- `:LudemePlay`: the game's page of `ludeme serve` (one server per project) in the browser.
--- @param on_done? fun(url: string?)
function M.play(on_done)
  local file = current_game()
  if not file then
    return
  end
  local folder = M.root(file)
  M.serve(folder, function(page, err)
    local url = page and M.game_url(page, folder, file)
    if not url then
      local reason = err or (file .. ' is not under ' .. folder)
      vim.notify('ludeme: cannot serve the game: ' .. reason, vim.log.levels.ERROR)
    else
      open(url)
    end
    if on_done then
      on_done(url)
    end
  end)
end

--- `:LudemeReport`: `ludeme report` into a temporary HTML file, opened in the browser.
--- @param args string[] more options of `ludeme report`
--- @param on_done? fun(path: string?)
function M.report(args, on_done)
  local file = current_game()
  if not file then
    return
  end
  local output = vim.fn.tempname() .. '-' .. vim.fn.fnamemodify(file, ':t:r') .. '.html'
  local command = { M.binary(), 'report', file, '-o', output }
  vim.list_extend(command, args or {})
  vim.notify('ludeme: reporting on ' .. vim.fs.basename(file) .. '...')
  local function on_exit(result)
    vim.schedule(function()
      local done = result.code == 0 and vim.uv.fs_stat(output) ~= nil
      if done then
        open(output)
      else
        vim.notify('ludeme report failed: ' .. vim.trim(result.stderr or ''), vim.log.levels.ERROR)
      end
      if on_done then
        on_done(done and output or nil)
      end
    end)
  end
  local opts = { text = true, cwd = M.root(file), env = { NO_COLOR = '1' } }
  local ok, started = pcall(vim.system, command, opts, on_exit)
  if not ok then
    vim.notify('ludeme: cannot run ' .. command[1] .. ': ' .. tostring(started), vim.log.levels.ERROR)
  end
end

--- The open rulebooks by game buffer: { buf = the rulebook's buffer, timer, refreshes = how many
--- answers filled it }.
M.rulebooks = {}

--- How long the game must stay unedited before its rulebook is asked for again.
M.RULEBOOK_DELAY_MS = 300

--- How many times a `ludeme/rulebook` request cancelled by ContentModified is sent: a write
--- elsewhere (the workspace scan landing) can cancel it; an edit of the game brings its own refresh.
local RULEBOOK_ATTEMPTS = 3

--- Fills the rulebook of the game buffer `game` from `ludeme/rulebook`, asked of the server
--- attached to it, which reads the buffer's text: unsaved edits count.
--- @param game integer
--- @param attempt? integer
function M.refresh_rulebook(game, attempt)
  attempt = attempt or 1
  local rulebook = M.rulebooks[game]
  if not rulebook or not vim.api.nvim_buf_is_valid(rulebook.buf) then
    return
  end
  local client = vim.lsp.get_clients({ bufnr = game, name = 'ludeme' })[1]
  if not client then
    set_text(rulebook.buf, '*Ludeme: the language server is not attached to this game.*')
    return
  end
  local params = { textDocument = vim.lsp.util.make_text_document_params(game) }
  -- Given the buffer, the client sends the game's pending edits before the request.
  client:request('ludeme/rulebook', params, function(err, result)
    if not vim.api.nvim_buf_is_valid(rulebook.buf) or M.rulebooks[game] ~= rulebook then
      return
    end
    if err and err.code == vim.lsp.protocol.ErrorCodes.ContentModified then
      if attempt < RULEBOOK_ATTEMPTS then
        M.refresh_rulebook(game, attempt + 1)
      end
      return
    end
    local text = result and result.markdown
    if err or type(text) ~= 'string' then
      text = '*Ludeme: the rulebook could not be made: ' .. (err and err.message or 'no answer') .. '.*'
    end
    set_text(rulebook.buf, text)
    rulebook.refreshes = rulebook.refreshes + 1
  end, game)
end

--- Stops following the game buffer `game`: its timer and autocommands go.
local function forget_rulebook(game)
  local rulebook = M.rulebooks[game]
  if not rulebook then
    return
  end
  M.rulebooks[game] = nil
  rulebook.timer:stop()
  rulebook.timer:close()
  pcall(vim.api.nvim_del_augroup_by_id, rulebook.group)
end

--- `:LudemeRulebook`: the current game's rulebook as Markdown in a scratch buffer to its right,
--- refreshed once the game stays unedited for RULEBOOK_DELAY_MS. The cursor stays in the game.
--- @return integer? the rulebook's buffer
function M.rulebook()
  local game = vim.api.nvim_get_current_buf()
  if not vim.tbl_contains(M.filetypes, vim.bo[game].filetype) then
    vim.notify('ludeme: this buffer is not a game file', vim.log.levels.WARN)
    return nil
  end
  local game_window = vim.api.nvim_get_current_win()
  local existing = M.rulebooks[game]
  if existing and vim.api.nvim_buf_is_valid(existing.buf) then
    if #vim.fn.win_findbuf(existing.buf) == 0 then
      vim.cmd('vertical rightbelow sbuffer ' .. existing.buf)
      vim.api.nvim_set_current_win(game_window)
    end
    M.refresh_rulebook(game)
    return existing.buf
  end
  local name = vim.api.nvim_buf_get_name(game)
  local title = 'ludeme://rulebook/' .. (name ~= '' and vim.fs.basename(name) or tostring(game))
  local buf = scratch('vertical rightbelow new', title, 'markdown')
  -- Kept while hidden: the game may show it again.
  vim.bo[buf].bufhidden = 'hide'
  vim.bo[buf].modifiable = false
  vim.api.nvim_set_current_win(game_window)
  local rulebook = {
    buf = buf,
    timer = vim.uv.new_timer(),
    refreshes = 0,
    group = vim.api.nvim_create_augroup('ludeme_rulebook_' .. game, { clear = true }),
  }
  M.rulebooks[game] = rulebook
  vim.api.nvim_create_autocmd({ 'TextChanged', 'TextChangedI' }, {
    group = rulebook.group,
    buffer = game,
    callback = function()
      rulebook.timer:stop()
      rulebook.timer:start(
        M.RULEBOOK_DELAY_MS,
        0,
        vim.schedule_wrap(function()
          M.refresh_rulebook(game)
        end)
      )
    end,
  })
  -- Wiping either the game or its rulebook ends the refreshing.
  for _, wiped in ipairs({ game, buf }) do
    vim.api.nvim_create_autocmd('BufWipeout', {
      group = rulebook.group,
      buffer = wiped,
      callback = function()
        forget_rulebook(game)
      end,
    })
  end
  M.refresh_rulebook(game)
  return buf
end

--- The request of the series `:LudemePlayMatch` is playing, for `:LudemePlayMatchStop`.
--- @type { client: vim.lsp.Client, id: integer, name: string, on_done: fun(buf: integer?)? }?
local playing = nil

--- `:LudemePlayMatch`: matches of the current GDL game (its buffer's text, unsaved edits
--- included) between players of the language server's process over the GGP protocol
--- (`ludeme/playMatch`: MCTS against random, seats rotating), the summary in a Markdown scratch
--- buffer to the right.
--- @param on_done? fun(buf: integer?)
function M.play_match(on_done)
  local game = vim.api.nvim_get_current_buf()
  local client = vim.lsp.get_clients({ bufnr = game, name = 'ludeme' })[1]
  if vim.bo[game].filetype ~= 'gdl' or not client then
    vim.notify('ludeme: open a GDL game (.kif) with the language server attached', vim.log.levels.WARN)
    return
  end
  local name = vim.fs.basename(vim.api.nvim_buf_get_name(game))
  vim.notify('ludeme: playing ' .. name .. '...')
  local params = { textDocument = vim.lsp.util.make_text_document_params(game), matches = 2 }
  local sent, id
  sent, id = client:request('ludeme/playMatch', params, function(err, result)
    if playing and playing.id == id then
      playing = nil
    end
    local text = err and ('*Ludeme: the match could not be played: ' .. err.message .. '.*')
      or ('# Matches of ' .. name .. '\n\nMCTS against random, the seats rotating.\n\n' .. result.summary)
    local buf = scratch('vertical rightbelow new', 'ludeme://matches/' .. name, 'markdown')
    set_text(buf, text)
    if on_done then
      on_done(buf)
    end
  end, game)
  if sent then
    playing = { client = client, id = id, name = name, on_done = on_done }
  end
end

--- `:LudemePlayMatchStop`: cancels the series `:LudemePlayMatch` is playing; the server stops
--- its matches at their next step. Whether there was one to stop.
--- @return boolean
function M.stop_match()
  if not playing then
    vim.notify('ludeme: no match is being played', vim.log.levels.WARN)
    return false
  end
  -- Neovim drops the callback of a request once the server acknowledges its cancellation,
  -- so the series ends here.
  local stopped = playing
  playing = nil
  stopped.client:cancel_request(stopped.id)
  vim.notify('ludeme: the matches of ' .. stopped.name .. ' were stopped')
  if stopped.on_done then
    stopped.on_done(nil)
  end
  return true
end

return M
