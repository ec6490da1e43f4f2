; Ludi GDL folding: every list (the game, its board, pieces, moves, end
; clauses...) folds; editors only offer folds that span several lines.

(list) @fold
