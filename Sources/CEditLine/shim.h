#ifndef HEARTH_CEDITLINE_SHIM_H
#define HEARTH_CEDITLINE_SHIM_H
// libedit's readline-compatible API (BSD licence, Debian's libedit-dev): line editing, history
// and completion for the interactive REPL. Its header uses FILE without including stdio.h.
#include <stdio.h>
#include <editline/readline.h>

// Swift 6 refuses to touch mutable C globals directly (they are not concurrency-safe); the REPL
// sets them from its one thread through these.
static inline void hearth_rl_configure(const char *name, rl_completion_func_t *complete) {
    rl_readline_name = name;
    rl_attempted_completion_function = complete;
}
static inline void hearth_rl_no_default_completion(void) { rl_attempted_completion_over = 1; }
static inline const char *hearth_rl_line(void) { return rl_line_buffer; }
#endif
