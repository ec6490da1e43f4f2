//! Engine unit tests: board graphs, rules and end conditions against hand-checked positions.
