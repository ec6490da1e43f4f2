; Helix indentation for Ludi GDL: the children of a list are indented one level; a line that starts
; with the closing parenthesis goes back to the list's level.
(list) @indent

")" @outdent
