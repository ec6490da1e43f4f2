; nvim-treesitter style indentation: the lines after a rule's first line are indented one level
; (the body of `head :-`); inside a parenthesised group or an argument list the next lines are
; indented too, and a line that starts with `)` goes back.
(rule) @indent.begin

[
  (group)
  (arguments)
] @indent.begin

")" @indent.branch @indent.end

(comment) @indent.auto
