-- Headless test of the plugin in a real Neovim, configured with nothing but the plugin on
-- 'runtimepath' (see test/run.sh) and `vim.lsp.enable('ludeme')`, with `ludeme` on PATH.
--
--   nvim --clean --headless --cmd 'set rtp^=editors/nvim' -l editors/nvim/test/run.lua
--
-- Each fixture (editors/fixtures/broken.*) holds one known mistake: the test opens it, checks the
-- file type, waits for the server to attach and report the mistake where it is, hovers, and
-- checks the tree-sitter highlights and folds. Exits non-zero on the first failure.

vim.lsp.enable('ludeme')

local plugin = vim.fs.dirname(vim.fs.dirname(debug.getinfo(1, 'S').source:sub(2)))
plugin = vim.fn.fnamemodify(plugin, ':p'):gsub('/$', '')
local repository = vim.fs.dirname(vim.fs.dirname(plugin))
local fixtures = repository .. '/editors/fixtures'
local TIMEOUT_MS = 30000

local failures = 0
local function check(condition, message)
  if not condition then
    failures = failures + 1
    io.stderr:write('FAIL: ' .. message .. '\n')
  end
  return condition
end

local function test(name, body)
  local before = failures
  local ok, err = xpcall(body, debug.traceback)
  check(ok, name .. ': ' .. tostring(err))
  io.stdout:write((failures == before and 'ok - ' or 'not ok - ') .. name .. '\n')
end

--- The 0-based row and column of `word` in the first line that holds it outside a comment.
local function word_in_code(buf, word)
  for row, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local column = line:find(word, 1, true)
    if column and not line:match('^%s*[#;%%]') then
      return row - 1, column - 1
    end
  end
  error(word .. ' is not in the code')
end

local function captures_at(buf, row, col)
  local names = {}
  for _, capture in ipairs(vim.treesitter.get_captures_at_pos(buf, row, col)) do
    names[capture.capture] = true
  end
  return names
end

local function ludeme_client(buf)
  local attached
  vim.wait(TIMEOUT_MS, function()
    attached = vim.lsp.get_clients({ bufnr = buf, name = 'ludeme' })[1]
    return attached ~= nil and attached.initialized
  end, 50)
  return attached
end

--- A request, sent again while the server answers ContentModified: LSP lets a server give up on
--- a request when its state changes under it (here: while it reads the workspace's other games),
--- and clients are to ask again.
local function request_retrying(client, method, params, buf)
  local response
  for _ = 1, 20 do
    response = client:request_sync(method, params, TIMEOUT_MS, buf)
    if not (response and response.err and response.err.code == vim.lsp.protocol.ErrorCodes.ContentModified) then
      return response
    end
    vim.wait(100)
  end
  return response
end

local function open(file)
  vim.cmd.edit(vim.fn.fnameescape(file))
  return vim.api.nvim_get_current_buf()
end

local cases = {
  {
    file = 'broken.egg',
    filetype = 'egg',
    code = 'egg/empty-range',
    word = '6..2',
    -- `is` in `game is Broken`; the first line is a comment.
    highlight = { word = ' is ', offset = 1, capture = 'keyword' },
  },
  {
    file = 'broken.ludi',
    filetype = 'ludi',
    code = 'ludi/unknown-ludeme',
    word = 'frobnicate',
    highlight = { word = 'game', offset = 0, capture = 'keyword' },
    fold_line = 3,
  },
  {
    file = 'broken.kif',
    filetype = 'gdl',
    code = 'gdl/unsafe-variable',
    word = '?other',
    highlight = { word = 'legal', offset = 0, capture = 'keyword' },
    hover = 'legal',
  },
  {
    file = 'broken.hrf',
    filetype = 'hrf',
    code = 'gdl/unsafe-variable',
    word = 'Other',
    highlight = { word = 'legal', offset = 0, capture = 'keyword' },
    hover = 'legal',
  },
}

for _, case in ipairs(cases) do
  test(case.file, function()
    local buf = open(fixtures .. '/' .. case.file)
    check(vim.bo[buf].filetype == case.filetype, case.file .. ': filetype ' .. vim.bo[buf].filetype)

    local client = ludeme_client(buf)
    if not check(client, case.file .. ': the ludeme server attached') then
      return
    end

    -- The mistake, where it is.
    local row, col = word_in_code(buf, case.word)
    local found
    vim.wait(TIMEOUT_MS, function()
      for _, diagnostic in ipairs(vim.diagnostic.get(buf)) do
        if diagnostic.code == case.code then
          found = diagnostic
        end
      end
      return found ~= nil
    end, 50)
    if check(found, case.file .. ': a ' .. case.code .. ' diagnostic') then
      check(
        found.lnum == row and found.col == col and found.end_col == col + #case.word,
        string.format('%s: diagnostic at %d:%d-%d, %s is at %d:%d', case.file, found.lnum, found.col, found.end_col, case.word, row, col)
      )
      check(found.severity == vim.diagnostic.severity.ERROR, case.file .. ': an error')
    end

    -- A hover: on GDL keywords it explains them; elsewhere it must at least answer.
    local hover_word = case.hover or case.word
    local hover_row, hover_col = word_in_code(buf, hover_word)
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(buf) },
      position = { line = hover_row, character = hover_col + 1 },
    }
    local response = request_retrying(client, 'textDocument/hover', params, buf)
    if check(response and not response.err, case.file .. ': hover answered ' .. vim.inspect(response)) then
      if case.hover then
        local value = response.result and response.result.contents and response.result.contents.value or ''
        check(value:find(case.hover, 1, true) and value:find('keyword', 1, true), case.file .. ': hover text ' .. value)
      end
    end

    -- Tree-sitter: the highlighter runs and the highlights query captures what it should.
    check(vim.treesitter.highlighter.active[buf] ~= nil, case.file .. ': tree-sitter highlighting is on')
    local hl_row, hl_col = word_in_code(buf, case.highlight.word)
    local names = captures_at(buf, hl_row, hl_col + case.highlight.offset)
    check(names[case.highlight.capture], case.file .. ': captures at ' .. case.highlight.word .. ': ' .. vim.inspect(vim.tbl_keys(names)))
    check(captures_at(buf, 0, 0).comment, case.file .. ': the first line is a comment')
    if case.fold_line then
      check(vim.fn.foldlevel(case.fold_line) >= 1, case.file .. ': line ' .. case.fold_line .. ' is in a fold')
    end
  end)
end

test('a .gdl file in the infix form is hrf, in the prefix form gdl', function()
  local folder = vim.fn.tempname()
  vim.fn.mkdir(folder, 'p')
  vim.fn.writefile({ '% infix', 'role(x)' }, folder .. '/infix.gdl')
  vim.fn.writefile({ '; prefix', '(role x)' }, folder .. '/prefix.gdl')
  check(vim.bo[open(folder .. '/infix.gdl')].filetype == 'hrf', 'infix .gdl is hrf')
  check(vim.bo[open(folder .. '/prefix.gdl')].filetype == 'gdl', 'prefix .gdl is gdl')
end)

test('every query of every language compiles against its parser', function()
  for _, language in ipairs({ 'egg', 'ludi', 'gdl', 'hrf' }) do
    for _, name in ipairs({ 'highlights', 'folds', 'indents', 'locals' }) do
      local ok, query = pcall(vim.treesitter.query.get, language, name)
      check(ok and query, language .. '/' .. name .. '.scm: ' .. tostring(query))
    end
  end
end)

test('the queries installed for Helix compile against the parsers', function()
  local queries = vim.env.LUDEME_HELIX_QUERIES
  if not check(queries and vim.fn.isdirectory(queries) == 1, 'LUDEME_HELIX_QUERIES is a folder') then
    return
  end
  local count = 0
  for _, language in ipairs({ 'egg', 'ludi', 'gdl', 'hrf' }) do
    for name, kind in vim.fs.dir(queries .. '/' .. language) do
      if kind == 'file' and name:match('%.scm$') then
        local text = table.concat(vim.fn.readfile(queries .. '/' .. language .. '/' .. name), '\n')
        local ok, err = pcall(vim.treesitter.query.parse, language, text)
        check(ok, 'helix ' .. language .. '/' .. name .. ': ' .. tostring(err))
        count = count + 1
      end
    end
  end
  check(count >= 12, 'helix queries found: ' .. count)
end)

-- Helix and tree-sitter-highlight take the first pattern that matches a node, Neovim the last:
-- the queries promise that no node gets two different highlights, so both agree.
test('no node of the corpus gets two different highlights', function()
  local extensions = { egg = 'egg', ludi = 'ludi', kif = 'gdl', hrf = 'hrf' }
  local files = vim.fs.find(function(name)
    return extensions[name:match('%.(%w+)$') or ''] ~= nil
  end, { path = repository .. '/corpus', type = 'file', limit = math.huge })
  check(#files >= 4, 'corpus games found: ' .. #files)
  for _, file in ipairs(files) do
    local language = extensions[file:match('%.(%w+)$')]
    local text = table.concat(vim.fn.readfile(file), '\n')
    local tree = vim.treesitter.get_string_parser(text, language):parse()[1]
    local query = vim.treesitter.query.get(language, 'highlights')
    local by_node = {}
    for id, node in query:iter_captures(tree:root(), text) do
      local name = query.captures[id]
      if not name:match('^_') and name ~= 'spell' then
        local key = table.concat({ node:range() }, ':') .. ':' .. node:type()
        by_node[key] = by_node[key] or {}
        by_node[key][name] = true
      end
    end
    for key, names in pairs(by_node) do
      local list = vim.tbl_keys(names)
      check(#list == 1, file .. ' node ' .. key .. ': ' .. table.concat(list, ', '))
    end
  end
end)

test(':LudemeExplain shows the rules in a scratch buffer', function()
  local game = open(fixtures .. '/broken.ludi')
  local shown
  require('ludeme').run({ 'explain' }, {}, {
    on_done = function(buf)
      shown = buf or false
    end,
  })
  vim.wait(TIMEOUT_MS, function()
    return shown ~= nil
  end, 50)
  if check(shown, ':LudemeExplain opened a buffer') then
    local text = table.concat(vim.api.nvim_buf_get_lines(shown, 0, -1, false), '\n')
    check(text:find('White and Black', 1, true), 'the English names the players: ' .. text)
    check(vim.bo[shown].buftype == 'nofile', 'a scratch buffer')
    check(vim.api.nvim_get_current_buf() ~= game, 'shown beside the game')
  end
  check(vim.fn.exists(':LudemeProbe') == 2 and vim.fn.exists(':LudemeNearest') == 2, 'the commands exist')
end)

test(':LudemeRulebook shows the rulebook beside the game and follows unsaved edits', function()
  local file = vim.fn.tempname() .. '.ludi'
  local text =
    '(game Hex (players White Black) (board (tiling hex) (shape rhombus) (size 5 5)) (end (All win (connect All-sides))))'
  vim.fn.writefile({ text }, file)
  local game = open(file)
  local game_window = vim.api.nvim_get_current_win()
  if not check(ludeme_client(game), 'the ludeme server attached to ' .. file) then
    return
  end
  local ludeme = require('ludeme')
  local book = ludeme.rulebook()
  if not check(book, ':LudemeRulebook made a buffer') then
    return
  end
  local function book_text()
    return table.concat(vim.api.nvim_buf_get_lines(book, 0, -1, false), '\n')
  end
  vim.wait(TIMEOUT_MS, function()
    return ludeme.rulebooks[game].refreshes > 0
  end, 50)
  check(book_text():find('^# Hex\n'), 'the rulebook, titled: ' .. book_text())
  check(book_text():find('5×5 rhombus board', 1, true), 'the board as written: ' .. book_text())
  check(vim.bo[book].buftype == 'nofile' and vim.bo[book].filetype == 'markdown', 'a Markdown scratch buffer')
  check(vim.api.nvim_get_current_win() == game_window, 'the cursor stays in the game')
  local book_window = vim.fn.win_findbuf(book)[1]
  check(
    book_window and vim.api.nvim_win_get_position(book_window)[2] > vim.api.nvim_win_get_position(game_window)[2],
    'shown to the right of the game'
  )

  -- Three quick unsaved edits: one refresh, once the typing pauses, with the last text.
  for _, size in ipairs({ 6, 7, 8 }) do
    local edited = text:gsub('%(size 5 5%)', string.format('(size %d %d)', size, size))
    vim.api.nvim_buf_set_lines(game, 0, -1, false, { edited })
    vim.api.nvim_exec_autocmds('TextChanged', { buffer = game })
  end
  check(vim.bo[game].modified, 'the edits are not saved')
  check(ludeme.rulebooks[game].refreshes == 1, 'no refresh while typing')
  vim.wait(TIMEOUT_MS, function()
    return ludeme.rulebooks[game].refreshes > 1
  end, 50)
  vim.wait(ludeme.RULEBOOK_DELAY_MS * 3)
  check(ludeme.rulebooks[game].refreshes == 2, 'one refresh for the burst: ' .. ludeme.rulebooks[game].refreshes)
  check(book_text():find('8×8 rhombus board', 1, true), 'the edited board: ' .. book_text())
  check(not book_text():find('5×5', 1, true), 'the old board is gone: ' .. book_text())

  -- Asked again, the same buffer; closed, nothing follows the game any more.
  check(ludeme.rulebook() == book, 'one rulebook per game')
  vim.api.nvim_buf_delete(book, { force = true })
  check(ludeme.rulebooks[game] == nil, 'the rulebook forgotten with its buffer')
  vim.api.nvim_buf_delete(game, { force = true })
  os.remove(file)
  check(vim.fn.exists(':LudemeRulebook') == 2, 'the command exists')
end)

test(':LudemePlayMatch plays the game between local players and shows the summary', function()
  local file = vim.fn.tempname() .. '.kif'
  vim.fn.writefile(vim.fn.readfile(repository .. '/corpus/gdl/ticTacToe.kif'), file)
  local game = open(file)
  if not check(ludeme_client(game), 'the ludeme server attached to ' .. file) then
    return
  end
  local shown
  require('ludeme').play_match(function(buf)
    shown = buf
  end)
  vim.wait(60000, function()
    return shown ~= nil
  end, 100)
  if not check(shown, 'the summary came') then
    return
  end
  local text = table.concat(vim.api.nvim_buf_get_lines(shown, 0, -1, false), '\n')
  check(text:find('# Matches of', 1, true), 'titled: ' .. text)
  check(text:find('| player | matches | won |', 1, true), 'the summary table: ' .. text)
  check(select(2, text:gsub('goals xplayer', '')) == 2, 'two matches with goals: ' .. text)
  check(vim.bo[shown].filetype == 'markdown', 'a Markdown buffer')
  vim.api.nvim_buf_delete(shown, { force = true })
  vim.api.nvim_buf_delete(game, { force = true })
  os.remove(file)
  check(vim.fn.exists(':LudemePlayMatch') == 2, 'the command exists')
end)

test(':LudemePlayMatchStop stops the series under way', function()
  local file = vim.fn.tempname() .. '.kif'
  vim.fn.writefile(vim.fn.readfile(repository .. '/corpus/gdl/ticTacToe.kif'), file)
  local game = open(file)
  if not check(ludeme_client(game), 'the ludeme server attached to ' .. file) then
    return
  end
  local ludeme = require('ludeme')
  check(not ludeme.stop_match(), 'nothing to stop before a series')
  local done, shown = false, nil
  ludeme.play_match(function(buf)
    done, shown = true, buf
  end)
  vim.wait(500)
  local buffers = #vim.api.nvim_list_bufs()
  check(ludeme.stop_match(), 'a series to stop')
  check(done and shown == nil, 'the series ended, with no summary')
  check(not ludeme.stop_match(), 'nothing left to stop')
  -- Two matches of MCTS's 1 s clock take about ten seconds: had the request gone on, its
  -- summary would have opened by now.
  vim.wait(14000)
  check(#vim.api.nvim_list_bufs() == buffers, 'no summary opened later')
  vim.api.nvim_buf_delete(game, { force = true })
  os.remove(file)
  check(vim.fn.exists(':LudemePlayMatchStop') == 2, 'the command exists')
end)

test("the server's lens commands show their details", function()
  local shown = vim.lsp.commands['ludeme.showProbe']({
    title = 'viable · 50 games',
    command = 'ludeme.showProbe',
    arguments = { { uri = 'file:///g.ludi', viable = true, games = 50, first_move_advantage = 0.5 } },
  })
  local lines = vim.api.nvim_buf_get_lines(shown, 0, -1, false)
  check(
    vim.deep_equal(lines, { '# viable · 50 games', '', '- first move advantage: 0.5', '- games: 50', '- viable: true' }),
    'probe details: ' .. vim.inspect(lines)
  )
  shown = vim.lsp.commands['ludeme.showSimulation']({
    title = 'random play',
    command = 'ludeme.showSimulation',
    arguments = { { markdown = 'no terminal state\nin 10 games' } },
  })
  lines = vim.api.nvim_buf_get_lines(shown, 0, -1, false)
  check(vim.deep_equal(lines, { '# random play', '', 'no terminal state', 'in 10 games' }), 'simulation: ' .. vim.inspect(lines))
end)

test('the page address of ludeme serve, and of a game on it', function()
  local ludeme = require('ludeme')
  local printed = 'ludeme serve: the games of /my games at http://127.0.0.1:41237/\n'
  check(ludeme.serve_url(printed) == 'http://127.0.0.1:41237/', 'the address is read')
  check(ludeme.serve_url('ludeme serve: the games of . at http://127.0.0.1:4') == nil, 'not yet printed')
  local game = ludeme.game_url('http://127.0.0.1:5/', '/w/', '/w/corpus/gdl/a b#.kif')
  check(game == 'http://127.0.0.1:5/#corpus%2Fgdl%2Fa%20b%23.kif', 'the game is named in the fragment: ' .. tostring(game))
  check(ludeme.game_url('http://127.0.0.1:5/', '/w', '/elsewhere/a.kif') == nil, 'a file outside the folder')
end)

--- Runs `action` with vim.ui.open replaced by a recorder; returns what it was asked to open.
local function opened_by(action)
  local real = vim.ui.open
  local targets = {}
  vim.ui.open = function(target)
    table.insert(targets, target)
    return nil, nil
  end
  local ok, err = pcall(function()
    action()
    vim.wait(TIMEOUT_MS * 4, function()
      return #targets > 0
    end, 50)
  end)
  vim.ui.open = real
  assert(ok, err)
  return targets[1]
end

test(':LudemePlay serves the project once and opens the game on its page', function()
  local ludeme = require('ludeme')
  open(fixtures .. '/broken.ludi')
  local url = opened_by(function()
    vim.cmd('LudemePlay')
  end)
  if check(url, ':LudemePlay opened an address') then
    check(url:match('^http://127%.0%.0%.1:%d+/#editors%%2Ffixtures%%2Fbroken%.ludi$'), 'the game page: ' .. url)
    local origin = url:match('^(http://[^/]+)/')
    if vim.fn.executable('curl') == 1 then
      local address = origin .. '/api/game?path=editors/fixtures/broken.ludi'
      local answer = vim.system({ 'curl', '-s', '-o', '/dev/null', '-w', '%{http_code}', address }, { text = true }):wait()
      check(answer.stdout == '200', 'the server knows the game: ' .. tostring(answer.stdout))
    end
    open(fixtures .. '/broken.kif')
    local again = opened_by(function()
      vim.cmd('LudemePlay')
    end)
    check(again and vim.startswith(again, origin .. '/#'), 'the same server for the same project: ' .. tostring(again))
    check(vim.tbl_count(ludeme.servers) == 1, 'one server')
  end
  ludeme.stop_servers()
  check(next(ludeme.servers) == nil, 'the servers are stopped')
end)

test(':LudemeReport writes the report to a temporary file and opens it', function()
  open(fixtures .. '/broken.ludi')
  local path = opened_by(function()
    vim.cmd('LudemeReport')
  end)
  if check(path, ':LudemeReport opened a file') then
    check(path:match('%.html$'), 'an HTML file: ' .. path)
    local text = table.concat(vim.fn.readfile(path), '\n')
    check(text:find('<!DOCTYPE html>', 1, true) and text:find('Ludeme report', 1, true), 'the report')
    os.remove(path)
  end
end)

if failures > 0 then
  io.stderr:write(failures .. ' check(s) failed\n')
  os.exit(1)
end
io.stdout:write('all Neovim checks passed\n')
