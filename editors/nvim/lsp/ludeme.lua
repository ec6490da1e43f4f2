---@brief
---
--- `ludeme lsp`: diagnostics, hovers, navigation, rename and formatting for game description
--- languages — EGGG (`.egg`), Ludi GDL (`.ludi`) and Stanford GDL in prefix KIF (`.kif`, `.gdl`)
--- and infix (`.hrf`) form.
---
--- Install the `ludeme` binary (`cargo install --path cli` in a clone of the repository) so that it
--- is on your `PATH`, then `vim.lsp.enable('ludeme')`.

---@type vim.lsp.Config
return {
  cmd = { 'ludeme', 'lsp' },
  filetypes = { 'egg', 'ludi', 'gdl', 'hrf' },
  root_markers = { 'ludeme.toml', '.git' },
}
