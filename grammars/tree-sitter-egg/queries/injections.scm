; Code escapes are Perl, EGGG's implementation language.
((code) @injection.content
  (#set! injection.language "perl"))
