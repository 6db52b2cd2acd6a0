/*
 * A complete arena bot in C (C99 + POSIX, no libraries) that plays a random
 * legal move in every variant, Qango and Quinque. Copy it to start your own
 * bot: replace choose_move(). The protocol is in protocol/PROTOCOL.md.
 *
 *     cc -O2 -o random_bot bots/c/random_bot.c
 *     ./random_bot [--seed N]
 *
 * JSON handling: a tiny reader for the lines arena sends. It assumes what
 * PROTOCOL.md promises: one complete JSON object per line, UTF-8, no
 * newline inside a line. It does not assume field order, spacing or a
 * maximum line length (getline() reads a whole line of any length). It
 * walks the top-level object, skips values it does not need (nested objects
 * and arrays included), and decodes the escapes \" \\ \/ \b \f \n \r \t in
 * strings; a \uXXXX escape is kept as written (arena never needs one in a
 * message type or a move).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* stdout belongs to the protocol; logs go to stderr. */
#define LOG(...) (fprintf(stderr, __VA_ARGS__), fputc('\n', stderr))

/* ---- a small JSON reader -------------------------------------------- */

static const char *skip_space(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    return p;
}

/* Reads the string starting at p (at its opening quote). If out is not
 * NULL, stores the decoded text there as a malloc'd string. Returns the
 * position after the closing quote, or NULL if the string is cut off. */
static const char *read_string(const char *p, char **out) {
    const char *start = ++p;
    size_t len = 0;
    char *text;
    while (*p && *p != '"') {
        if (*p == '\\' && p[1]) p++;
        p++;
    }
    if (*p != '"') return NULL;
    if (out) {
        text = malloc((size_t)(p - start) + 1);
        if (!text) return NULL;
        for (const char *q = start; q < p; q++) {
            char c = *q;
            if (c == '\\') {
                c = *++q;
                switch (c) {
                case 'b': c = '\b'; break;
                case 'f': c = '\f'; break;
                case 'n': c = '\n'; break;
                case 'r': c = '\r'; break;
                case 't': c = '\t'; break;
                case 'u': text[len++] = '\\'; break; /* kept as written */
                default: break;                      /* \" \\ \/ */
                }
            }
            text[len++] = c;
        }
        text[len] = '\0';
        *out = text;
    }
    return p + 1;
}

/* Skips any JSON value at p; returns the position after it, or NULL. */
static const char *skip_value(const char *p) {
    int depth = 0;
    p = skip_space(p);
    do {
        if (*p == '"') {
            p = read_string(p, NULL);
            if (!p) return NULL;
        } else if (*p == '{' || *p == '[') {
            depth++;
            p++;
        } else if (*p == '}' || *p == ']') {
            depth--;
            p++;
        } else if (*p == '\0') {
            return NULL;
        } else if (depth == 0) {
            /* a number, true, false or null at the top */
            while (*p && *p != ',' && *p != '}' && *p != ']' && *p != ' ') p++;
            return p;
        } else {
            p++; /* commas, colons, numbers and literals inside */
        }
    } while (depth > 0);
    return p;
}

/* Finds the value of `key` in the top-level object `line`; NULL if absent. */
static const char *find_field(const char *line, const char *key) {
    const char *p = skip_space(line);
    if (*p != '{') return NULL;
    p = skip_space(p + 1);
    while (*p == '"') {
        char *name = NULL;
        int match;
        p = read_string(p, &name);
        if (!p) return NULL;
        match = strcmp(name, key) == 0;
        free(name);
        p = skip_space(p);
        if (*p != ':') return NULL;
        p = skip_space(p + 1);
        if (match) return p;
        p = skip_value(p);
        if (!p) return NULL;
        p = skip_space(p);
        if (*p == ',') p = skip_space(p + 1);
    }
    return NULL;
}

/* The string field `key` of the top-level object, malloc'd, or NULL. */
static char *string_field(const char *line, const char *key) {
    const char *p = find_field(line, key);
    char *text = NULL;
    if (p && *p == '"' && read_string(p, &text)) return text;
    return NULL;
}

/* The strings of the array field `key`; returns how many (0 on error) and
 * stores a malloc'd array of malloc'd strings in *items. */
static size_t string_array_field(const char *line, const char *key, char ***items) {
    const char *p = find_field(line, key);
    size_t n = 0, cap = 64;
    char **list;
    *items = NULL;
    if (!p || *p != '[') return 0;
    list = malloc(cap * sizeof *list);
    if (!list) return 0;
    p = skip_space(p + 1);
    while (*p == '"') {
        if (n == cap) {
            char **bigger = realloc(list, (cap *= 2) * sizeof *list);
            if (!bigger) break;
            list = bigger;
        }
        p = read_string(p, &list[n]);
        if (!p) break;
        n++;
        p = skip_space(p);
        if (*p == ',') p = skip_space(p + 1);
    }
    *items = list;
    return n;
}

static void free_strings(char **items, size_t n) {
    for (size_t i = 0; i < n; i++) free(items[i]);
    free(items);
}

/* Writes `text` as a JSON string (quotes and backslashes escaped). */
static void put_json_string(const char *text) {
    putchar('"');
    for (; *text; text++) {
        if (*text == '"' || *text == '\\') putchar('\\');
        putchar(*text);
    }
    putchar('"');
}

/* ---- the bot -------------------------------------------------------- */

/* turn's legal_moves is the complete list of legal moves, never empty. */
static const char *choose_move(char **moves, size_t n) {
    return moves[(size_t)rand() % n];
}

static void answer_turn(const char *line) {
    char **moves;
    size_t n = string_array_field(line, "legal_moves", &moves);
    if (n == 0) {
        LOG("turn without legal_moves: %.80s", line);
        free_strings(moves, 0);
        return;
    }
    fputs("{\"type\":\"move\",\"move\":", stdout);
    put_json_string(choose_move(moves, n));
    fputs("}\n", stdout);
    fflush(stdout); /* an unflushed move is a timeout */
    free_strings(moves, n);
}

int main(int argc, char **argv) {
    unsigned seed = (unsigned)time(NULL) ^ (unsigned)getpid();
    char *line = NULL;
    size_t capacity = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            seed = (unsigned)strtoul(argv[++i], NULL, 10);
        } else {
            LOG("usage: %s [--seed N]", argv[0]);
            return 2;
        }
    }
    srand(seed);
    LOG("random_bot.c: seed %u", seed);

    /* getline grows `line` as needed: no line is too long. */
    while (getline(&line, &capacity, stdin) != -1) {
        char *type = string_field(line, "type");
        if (!type) {
            LOG("ignoring a line without a type: %.80s", line);
        } else if (strcmp(type, "hello") == 0) {
            puts("{\"type\":\"ready\",\"name\":\"random-c\",\"protocol\":1,"
                 "\"author\":\"arena examples\"}");
            fflush(stdout);
        } else if (strcmp(type, "turn") == 0) {
            answer_turn(line);
        } else if (strcmp(type, "game_over") == 0) {
            char *reason = string_field(line, "reason");
            LOG("game over: %s", reason ? reason : "?");
            free(reason);
        } else if (strcmp(type, "quit") == 0) {
            free(type);
            break;
        }
        /* new_game and unknown types: no answer. */
        free(type);
    }
    free(line);
    return 0;
}
