-- Ludeme: commands and per-buffer setup for EGGG, Ludi GDL and Stanford GDL. The language server
-- is configured by lsp/ludeme.lua (enable it with `vim.lsp.enable('ludeme')`); file types are
-- detected by ftdetect/ludeme.lua.
if vim.g.loaded_ludeme then
  return
end
vim.g.loaded_ludeme = true

local function ludeme()
  return require('ludeme')
end

vim.api.nvim_create_autocmd('FileType', {
  group = vim.api.nvim_create_augroup('ludeme', { clear = true }),
  pattern = { 'egg', 'ludi', 'gdl', 'hrf' },
  callback = function(event)
    ludeme().setup_buffer(event.buf)
  end,
})

-- The server's code lenses name these client commands; their argument carries the details.
for _, name in ipairs({ 'ludeme.showProbe', 'ludeme.showNearest', 'ludeme.showBench', 'ludeme.showSimulation' }) do
  vim.lsp.commands[name] = function(command)
    return ludeme().show_lens(command)
  end
end

vim.api.nvim_create_user_command('LudemeProbe', function(command)
  local args = { '--games', tostring(vim.g.ludeme_probe_games or 100) }
  -- Unset, the time limit is the project's: `[probe] seconds` of ludeme.toml, else 60.
  if vim.g.ludeme_probe_seconds then
    vim.list_extend(args, { '--time-limit', tostring(vim.g.ludeme_probe_seconds) })
  end
  ludeme().run({ 'probe' }, vim.list_extend(args, command.fargs))
end, { nargs = '*', desc = 'Judge this game by self-play (ludeme probe)' })

vim.api.nvim_create_user_command('LudemeExplain', function(command)
  ludeme().run({ 'explain' }, command.fargs)
end, { nargs = '*', desc = 'The rules of this game in English (ludeme explain)' })

vim.api.nvim_create_user_command('LudemeNearest', function(command)
  ludeme().run({ 'nearest' }, command.fargs)
end, { nargs = '*', desc = 'The games nearest to this one (ludeme nearest)' })

vim.api.nvim_create_user_command('LudemeConvert', function(command)
  local to = command.fargs[1] or (vim.bo.filetype == 'hrf' and 'kif' or 'infix')
  if to ~= 'kif' and to ~= 'infix' then
    vim.notify('LudemeConvert: convert to kif or infix', vim.log.levels.ERROR)
    return
  end
  ludeme().run({ 'fmt', '--to', to, '--stdout' }, {}, { filetype = to == 'kif' and 'gdl' or 'hrf' })
end, {
  nargs = '?',
  complete = function()
    return { 'kif', 'infix' }
  end,
  desc = 'This GDL game in the other syntax (ludeme fmt --to)',
})

vim.api.nvim_create_user_command('LudemePlay', function()
  ludeme().play()
end, { desc = "Play this game on the page of `ludeme serve`, in the browser" })

vim.api.nvim_create_user_command('LudemeReport', function(command)
  ludeme().report(command.fargs)
end, { nargs = '*', desc = "This game's report (ludeme report), in the browser" })

vim.api.nvim_create_user_command('LudemeRulebook', function()
  ludeme().rulebook()
end, { desc = "This game's rulebook beside it, following its edits (from the language server)" })

vim.api.nvim_create_user_command('LudemePlayMatch', function()
  ludeme().play_match()
end, { desc = 'Matches of this GDL game between local players, MCTS against random (from the language server)' })

vim.api.nvim_create_user_command('LudemePlayMatchStop', function()
  ludeme().stop_match()
end, { desc = 'Stop the matches :LudemePlayMatch is playing' })

vim.api.nvim_create_autocmd('VimLeavePre', {
  group = vim.api.nvim_create_augroup('ludeme_servers', { clear = true }),
  callback = function()
    if package.loaded.ludeme then
      require('ludeme').stop_servers()
    end
  end,
})
