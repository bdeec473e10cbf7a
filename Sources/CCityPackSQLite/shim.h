#ifndef CCITYPACK_SQLITE_SHIM_H
#define CCITYPACK_SQLITE_SHIM_H
#include <sqlite3.h>
#include <stdlib.h>

/// `SQLITE_TRANSIENT` is a cast macro Swift cannot import.
static inline sqlite3_destructor_type citypack_sqlite_transient(void) { return SQLITE_TRANSIENT; }

/// One of SQLite's FTS5 tokenizers (`unicode61 remove_diacritics 2`, …), made once and called directly, so a
/// reader splits and folds text exactly as an FTS5 table of the same tokenizer does.
typedef struct citypack_fts5_tokenizer {
    fts5_tokenizer methods;
    Fts5Tokenizer *instance;
} citypack_fts5_tokenizer;

/// The callback of `citypack_fts5_tokenize`: one token (not NUL-terminated) of `n` bytes.
typedef int (*citypack_fts5_token_callback)(void *context, int flags, const char *token, int n, int start, int end);

/// Makes the tokenizer `name` with its arguments on the connection `db` (its FTS5 module); NULL when FTS5 or the
/// tokenizer is missing or the arguments are refused. Free it with `citypack_fts5_tokenizer_free`.
static inline citypack_fts5_tokenizer *citypack_fts5_tokenizer_new(sqlite3 *db, const char *name, const char **args, int count) {
    fts5_api *api = 0;
    sqlite3_stmt *stmt = 0;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &stmt, 0) != SQLITE_OK) return 0;
    sqlite3_bind_pointer(stmt, 1, (void *)&api, "fts5_api_ptr", 0);
    sqlite3_step(stmt);
    sqlite3_finalize(stmt);
    if (!api || api->iVersion < 2) return 0;
    citypack_fts5_tokenizer *made = (citypack_fts5_tokenizer *)calloc(1, sizeof(citypack_fts5_tokenizer));
    if (!made) return 0;
    void *user = 0;
    if (api->xFindTokenizer(api, name, &user, &made->methods) != SQLITE_OK
        || made->methods.xCreate(user, args, count, &made->instance) != SQLITE_OK) {
        free(made);
        return 0;
    }
    return made;
}

/// Calls `callback` with each token of `text` (`n` bytes of UTF-8) as an FTS5 query would see it; SQLite's result code.
static inline int citypack_fts5_tokenize(citypack_fts5_tokenizer *t, const char *text, int n, void *context, citypack_fts5_token_callback callback) {
    return t->methods.xTokenize(t->instance, context, FTS5_TOKENIZE_QUERY, text, n, callback);
}

static inline void citypack_fts5_tokenizer_free(citypack_fts5_tokenizer *t) {
    if (!t) return;
    if (t->instance) t->methods.xDelete(t->instance);
    free(t);
}
#endif
