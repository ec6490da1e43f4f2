-- File types of the game description languages. The names are the language ids of the server
-- (`Syntax::language_id` in analysis/src/source.rs) and the tree-sitter parsers' names.
vim.filetype.add({
  extension = {
    egg = 'egg',
    ludi = 'ludi',
    kif = 'gdl',
    hrf = 'hrf',
    -- A `.gdl` file holds either syntax: prefix KIF when its first form (after white space and
    -- comments) opens with `(`, the infix form otherwise — the server's rule.
    gdl = function(_, bufnr)
      for _, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, 200, false)) do
        local text = vim.trim(line)
        if text ~= '' and not vim.startswith(text, ';') and not vim.startswith(text, '%') then
          return vim.startswith(text, '(') and 'gdl' or 'hrf'
        end
      end
      return 'gdl'
    end,
  },
})
