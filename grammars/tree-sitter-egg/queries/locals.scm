; Scopes, definitions and references. An EGGG file is one flat namespace: statements come in any
; order and every name defined anywhere is visible everywhere.
(source_file) @local.scope

(definition
  name: (word) @local.definition)

(definition
  name: (call
    function: (word) @local.definition))

(code_statement
  name: (word) @local.definition)

(code_statement
  name: (call
    function: (word) @local.definition))

(like_statement
  name: (word) @local.definition)

(word) @local.reference
