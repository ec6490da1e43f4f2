; Helix indentation for GDL in prefix KIF: the elements of a form are indented one level past its
; `(`; a line that starts with `)` goes back to the form's level.
[
  (rule)
  (list)
] @indent

")" @outdent
