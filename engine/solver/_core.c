/* The solver's compiled core: best-first searches over packed 64-bit states.
 *
 * The rules themselves live in engine/ (Python). This file receives the geometry (cover masks from
 * engine/layout.py) and one deal's card values and options from engine/solver/fast.py, and plays
 * the moves of engine/position.py on packed states; tests replay every line it returns through the
 * engine and cross-check its answers against the plain-Python reference search.
 *
 * A state is one 64-bit word:
 *   bits  0..10  pyramid shape index (one of the 1,430 shapes a game can reach)
 *   bits 11..17  reserve mask
 *   bits 18..41  pile mask (stock and waste together, over the original stock order)
 *   bits 42..46  pointer (pile indices below it are the waste; its top is pointer - 1)
 *   bits 47..62  pass number (0 under unlimited passes, where it decides nothing)
 *
 * Searches:
 *   least  depth-first with a visited set: the fewest cards_left that can be reached, cutting any
 *          position whose lower bound (dead cards; under goal pyramid the relaxation below) already
 *          reaches the best found. It stops at the first win.
 *   win    A* towards a won position; positions that cannot be won are cut.
 *   reach  A* towards a position with that many cards left: the fewest moves that reach it.
 *   Both A* searches take a position expanded already back when a shorter way to it turns up, so
 *   the first target taken from the queue is a fewest-moves line as long as the bound never
 *   overestimates.
 *
 * Bounds:
 *   dead cards       cards no partner can ever meet, and every card under one (dead_pyramid).
 *   relaxation       under goal pyramid: the pyramid alone, with the pile and reserve cards that
 *                    can still come up as a bag at hand whenever wanted; solved exactly over
 *                    (shape, bag) once per deal and kept (relax_solve).
 *   moves_bound      the relaxation's removals plus the moves that bring up the pile cards it uses.
 *   draw dominance   a position reachable by draws from one of the same cards found at no greater
 *                    cost is skipped (frontier_dominated).
 *
 * Inputs and memory:
 *   Every argument of configure() and solve() is checked (range and consistency) before anything
 *   trusts it; a bad one raises ValueError (TypeError for a value that is no integer), never a
 *   crash. The bounds are the engine's (docs/rules.md, sections 2 and 3): draw 1 or 3, passes 0
 *   (unlimited) to MAX_PASSES, 0 or 7 reserve cards, a real deck.
 *   Every allocation of a solve goes through mem_alloc/mem_realloc/mem_free with its site: a failed
 *   one (real, or made to fail by the test hook _fail_alloc_after, compiled only where PYRAMID_TEST_HOOKS
 *   is defined: the sanitizer and test builds of tests/solver, never setup.py's) marks the solve, every search
 *   unwinds and frees what it holds, and solve() raises MemoryError. The same accounting counts the
 *   blocks held, so a test sees a leak as a count above zero after the solve (_allocations, a test hook too).
 *   successors() writes at most MAX_KIDS children: a check, not only the bound's arithmetic, stops it
 *   (the solve raises RuntimeError) should a position ever have more.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NPOS 28
#define NSHAPES_MAX 1430
#define STOCK_LOC 35
#define WASTE_LOC 36
#define RESERVE_LOC 28
/* successors() of one position: with at most 7 free pyramid and 7 reserve cards (14 available), 14
 * kings, 91 pairs, 14 covered pairs, and per pile configuration (at most 50) two pile cards with a
 * partner each and S+W: under 1,600 */
#define MAX_KIDS 2048
#define MOVE_DRAW 0
#define MOVE_REDEAL 1
#define MOVE_REMOVE(a, b) ((uint16_t)(2 + (a) * 40 + ((b) + 1)))

static uint32_t cover_mask[NPOS], covers_mask[NPOS], below_mask[NPOS], above_mask[NPOS];
static uint32_t shape_mask[NSHAPES_MAX], shape_free[NSHAPES_MAX];
static int16_t shape_next[NSHAPES_MAX][NPOS];
static int nshapes = 0;

/* --- shape index ------------------------------------------------------------------------------- */
#define SHAPE_TABLE 8192
static uint32_t shape_table_mask[SHAPE_TABLE];
static int16_t shape_table_index[SHAPE_TABLE];

static unsigned shape_slot(uint32_t mask) {
    return (unsigned)(((uint64_t)mask * 0x9E3779B97F4A7C15ULL) >> 51) & (SHAPE_TABLE - 1);
}

static int shape_lookup(uint32_t mask) {
    unsigned i = shape_slot(mask);
    while (shape_table_index[i] >= 0) {
        if (shape_table_mask[i] == mask) return shape_table_index[i];
        i = (i + 1) & (SHAPE_TABLE - 1);
    }
    return -1;
}

static int shape_add(uint32_t mask) {
    unsigned i = shape_slot(mask);
    while (shape_table_index[i] >= 0) {
        if (shape_table_mask[i] == mask) return shape_table_index[i];
        i = (i + 1) & (SHAPE_TABLE - 1);
    }
    if (nshapes >= NSHAPES_MAX) return -1;
    shape_table_mask[i] = mask;
    shape_table_index[i] = (int16_t)nshapes;
    shape_mask[nshapes] = mask;
    return nshapes++;
}

/* --- checked arguments --------------------------------------------------------------------------- */
/* An integer argument in [lo, hi] into *out; ValueError naming it, its value and the range otherwise
 * (TypeError when it is no integer at all). */
static int int_arg(PyObject *obj, const char *name, long long lo, long long hi, long long *out) {
    PyObject *num = PyNumber_Index(obj);
    if (!num) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s must be an integer, not %.80s", name, Py_TYPE(obj)->tp_name);
        }
        return 0;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(num, &overflow);
    Py_DECREF(num);
    if (v == -1 && PyErr_Occurred()) return 0;
    if (overflow) {
        PyErr_Format(PyExc_ValueError, "%s must be from %lld to %lld; got a number out of that range", name, lo, hi);
        return 0;
    }
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s must be from %lld to %lld; got %lld", name, lo, hi, v);
        return 0;
    }
    *out = v;
    return 1;
}

/* An integer argument that must be one of two values. */
static int pair_arg(PyObject *obj, const char *name, long long one, long long other, long long *out) {
    if (!int_arg(obj, name, LLONG_MIN, LLONG_MAX, out)) {
        if (PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "%s must be %lld or %lld; got a number out of range", name, one, other);
        }
        return 0;
    }
    if (*out != one && *out != other) {
        PyErr_Format(PyExc_ValueError, "%s must be %lld or %lld; got %lld", name, one, other, *out);
        return 0;
    }
    return 1;
}

/* Solves running now (they let go of the GIL): configure() must not change the tables under them. */
static int solves_running = 0;

#define FULL_PYRAMID ((1u << NPOS) - 1)
#define MAX_FREE 7 /* free cards of any shape: the bounds of successors() rest on it */

/* Everything table leads to from p: table[p], what table gives for each of those, and so on. */
static uint32_t closure(const uint32_t *table, int p) {
    uint32_t mask = 0, todo = table[p];
    while (todo) {
        int q = __builtin_ctz(todo);
        todo &= todo - 1;
        if (mask >> q & 1) continue;
        mask |= 1u << q;
        todo |= table[q] & ~mask;
    }
    return mask;
}

/* configure(cover, covers, below, above): the pyramid geometry of engine/layout.py, 28 masks each.
 * Checked before use: 28-bit masks, covers the transpose of cover, below and above their closures,
 * no position under itself, at most two cards directly under any card; then the shapes a game can
 * reach are worked out (at most NSHAPES_MAX, each with at most MAX_FREE free cards). On any refusal
 * the core is left unconfigured and solve() refuses until a good configure(). */
static PyObject *core_configure(PyObject *self, PyObject *args) {
    PyObject *seqs[4];
    static const char *names[4] = {"cover", "covers", "below", "above"};
    if (!PyArg_ParseTuple(args, "OOOO", &seqs[0], &seqs[1], &seqs[2], &seqs[3])) return NULL;
    if (solves_running) {
        PyErr_SetString(PyExc_RuntimeError, "configure() while a solve runs: the geometry is in use");
        return NULL;
    }
    nshapes = 0; /* unconfigured until every check has passed and every shape is in */
    uint32_t given[4][NPOS];
    for (int k = 0; k < 4; k++) {
        PyObject *fast = PySequence_Fast(seqs[k], "each mask table must be a sequence");
        if (!fast) return NULL;
        if (PySequence_Fast_GET_SIZE(fast) != NPOS) {
            PyErr_Format(PyExc_ValueError, "the %s mask table needs %d entries; got %zd", names[k], NPOS,
                         PySequence_Fast_GET_SIZE(fast));
            Py_DECREF(fast);
            return NULL;
        }
        for (int p = 0; p < NPOS; p++) {
            long long v;
            char name[32];
            snprintf(name, sizeof name, "%s[%d]", names[k], p);
            if (!int_arg(PySequence_Fast_GET_ITEM(fast, p), name, 0, FULL_PYRAMID, &v)) {
                Py_DECREF(fast);
                return NULL;
            }
            given[k][p] = (uint32_t)v;
        }
        Py_DECREF(fast);
    }
    const char *wrong = NULL;
    for (int p = 0; p < NPOS && !wrong; p++) {
        uint32_t covers = 0;
        for (int q = 0; q < NPOS; q++)
            if (given[0][q] >> p & 1) covers |= 1u << q;
        uint32_t below = closure(given[0], p);
        if (covers != given[1][p]) wrong = "covers is not the transpose of cover";
        else if (__builtin_popcount(covers) > 2) wrong = "a card lies directly on more than two cards";
        else if (below >> p & 1) wrong = "a position lies under itself";
        else if (below != given[2][p]) wrong = "below is not the closure of cover";
        else if (closure(given[1], p) != given[3][p]) wrong = "above is not the closure of covers";
    }
    if (wrong) {
        PyErr_Format(PyExc_ValueError, "not a pyramid geometry: %s", wrong);
        return NULL;
    }
    memcpy(cover_mask, given[0], sizeof cover_mask);
    memcpy(covers_mask, given[1], sizeof covers_mask);
    memcpy(below_mask, given[2], sizeof below_mask);
    memcpy(above_mask, given[3], sizeof above_mask);
    /* every shape a game can reach, from the full pyramid by removing free cards */
    for (int i = 0; i < SHAPE_TABLE; i++) shape_table_index[i] = -1;
    shape_add(FULL_PYRAMID);
    for (int s = 0; s < nshapes; s++) {
        uint32_t m = shape_mask[s], free = 0;
        for (int p = 0; p < NPOS; p++)
            if ((m >> p & 1) && !(m & cover_mask[p])) free |= 1u << p;
        shape_free[s] = free;
        if (__builtin_popcount(free) > MAX_FREE) wrong = "a shape with more than 7 free cards";
        for (int p = 0; p < NPOS && !wrong; p++) {
            shape_next[s][p] = -1;
            if (free >> p & 1) {
                int t = shape_add(m & ~(1u << p));
                if (t < 0) wrong = "more pyramid shapes than the core has room for";
                else shape_next[s][p] = (int16_t)t;
            }
        }
        if (wrong) {
            nshapes = 0;
            PyErr_Format(PyExc_ValueError, "not a pyramid geometry: %s", wrong);
            return NULL;
        }
    }
    return PyLong_FromLong(nshapes);
}

/* --- memory ------------------------------------------------------------------------------------- */
/* Where each allocation of a solve is made; the names are what _allocations() reports and what
 * _fail_alloc_after(n, site) takes. */
#define ALLOC_SITES(X)                                                                            \
    X(SITE_RELAX_TABLE, "relax.table")          /* relax_init: the relaxation's table */          \
    X(SITE_RELAX_GROW, "relax.grow")            /* relax_store: the table doubled */              \
    X(SITE_STORE_NODES, "store.nodes")          /* store_init: the A* nodes */                    \
    X(SITE_STORE_INDEX, "store.index")          /* store_init: their index */                     \
    X(SITE_STORE_INDEX_GROW, "store.index_grow") /* store_grow: the index doubled */              \
    X(SITE_STORE_NODES_GROW, "store.nodes_grow") /* store_visit: the nodes doubled */             \
    X(SITE_QUEUE_ITEMS, "queue.items")          /* queue_init: the buckets */                     \
    X(SITE_QUEUE_LEN, "queue.len")                                                                \
    X(SITE_QUEUE_CAP, "queue.cap")                                                                \
    X(SITE_QUEUE_MORE_ITEMS, "queue.more_items") /* queue_push: more buckets */                   \
    X(SITE_QUEUE_MORE_LEN, "queue.more_len")                                                      \
    X(SITE_QUEUE_MORE_CAP, "queue.more_cap")                                                      \
    X(SITE_QUEUE_BUCKET, "queue.bucket")        /* queue_push: one bucket's entries grown */      \
    X(SITE_ASTAR_KIDS, "astar.kids")            /* astar: the children of one position */         \
    X(SITE_ASTAR_HASHES, "astar.hashes")                                                          \
    X(SITE_LINE_PATH, "line.path")              /* spell_line: the nodes of the line */           \
    X(SITE_LINE_MOVES, "line.moves")            /* spell_line: its moves */                       \
    X(SITE_SEEN_KEYS, "seen.keys")              /* seen_init: the visited table */                \
    X(SITE_SEEN_ORDER, "seen.order")                                                              \
    X(SITE_SEEN_GROW_KEYS, "seen.grow_keys")    /* seen_visit: the table doubled */               \
    X(SITE_SEEN_GROW_ORDER, "seen.grow_order")                                                    \
    X(SITE_STACK, "least.stack")                /* least_left: the depth-first stack */           \
    X(SITE_STACK_GROW, "least.stack_grow")                                                        \
    X(SITE_FRAME_KIDS, "least.frame_kids")      /* least_left: one depth's children */

#define SITE_ENUM(id, name) id,
#define SITE_NAME(id, name) name,
enum { ALLOC_SITES(SITE_ENUM) NSITES };
#ifdef PYRAMID_TEST_HOOKS
static const char *const site_names[NSITES] = {ALLOC_SITES(SITE_NAME)};
#endif

/* One solve's allocations: made through mem_alloc/mem_realloc/mem_free only. */
typedef struct {
    long long fail_at;            /* the test hook: this allocation (from 0) fails; -1 none */
    int fail_site;                /* ... counting only this site's allocations; -1 every site */
    unsigned long long total;     /* allocations asked for */
    unsigned long long at[NSITES]; /* ... by site */
    long long held;               /* blocks held now */
    int failed;                   /* an allocation failed: the solve unwinds and raises MemoryError */
} Mem;

#ifdef PYRAMID_TEST_HOOKS
/* The hook's setting, copied into each solve's Mem when it starts (so a solve on another thread
 * never sees it change), and the last solve's accounts for _allocations(). Test builds only (the
 * sanitizer build and the test build of tests/solver/conftest.py define PYRAMID_TEST_HOOKS; setup.py
 * does not): a production module has no way to make its allocations fail. */
static long long hook_fail_at = -1;
static int hook_fail_site = -1;
static Mem last_mem;
#endif

static int mem_refused(Mem *m, int site) {
    unsigned long long nth = m->fail_site < 0 ? m->total : m->at[site];
    m->total++;
    m->at[site]++;
    if (m->fail_at >= 0 && (m->fail_site < 0 || m->fail_site == site) && nth == (unsigned long long)m->fail_at) {
        m->failed = 1;
        return 1;
    }
    return 0;
}

/* n items of size bytes, zeroed when zero is set; NULL (and the solve marked) when memory runs out. */
static void *mem_alloc(Mem *m, int site, size_t n, size_t size, int zero) {
    if (mem_refused(m, site)) return NULL;
    void *p = NULL;
    if (n && size <= SIZE_MAX / n) p = zero ? calloc(n, size) : malloc(n * size);
    if (!p) {
        m->failed = 1;
        return NULL;
    }
    m->held++;
    return p;
}

/* The block at old resized to n items of size bytes. On failure NULL, the solve marked, and old
 * left as it was (still held: the caller keeps it and frees it). */
static void *mem_realloc(Mem *m, int site, void *old, size_t n, size_t size) {
    if (mem_refused(m, site)) return NULL;
    void *p = NULL;
    if (n && size <= SIZE_MAX / n) p = realloc(old, n * size);
    if (!p) {
        m->failed = 1;
        return NULL;
    }
    if (!old) m->held++;
    return p;
}

static void mem_free(Mem *m, void *p) {
    if (!p) return;
    m->held--;
    free(p);
}

/* --- one deal under one rule set ------------------------------------------------------------------ */
typedef struct {
    int pv[NPOS], rv[7], sv[24];
    int nres, npile, passes, draw, stock_live, waste_live, goal_all, covered;
    uint32_t king_pyr, king_res, king_pile;
    /* partners that can ever be available together with the card */
    uint32_t pp_pyr[NPOS], pp_res[NPOS], pp_pile[NPOS];
    uint32_t rp_pyr[7], rp_res[7], rp_pile[7];
    uint32_t sp_pyr[24], sp_res[24], sp_pile[24];
    uint32_t vm_pyr[14], vm_res[14], vm_pile[14];
    struct Relax *relax; /* the pyramid-alone relaxation's table, filled as the searches ask */
    Mem *mem;            /* every allocation of the solve */
    /* budgets */
    double deadline;
    uint64_t max_nodes, nodes, stored;
    size_t peak_bytes; /* the most memory the searches held at once */
    int out_of_budget;
    int kids_overflow; /* successors() found more children than MAX_KIDS: the solve raises RuntimeError */
} Ctx;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define KEY_SHAPE(k) ((int)((k) & 2047))
#define KEY_RES(k) ((uint32_t)(((k) >> 11) & 127))
#define KEY_PILE(k) ((uint32_t)(((k) >> 18) & 0xFFFFFF))
#define KEY_PTR(k) ((int)(((k) >> 42) & 31))
#define KEY_PASS(k) ((int)((k) >> 47))

static inline uint64_t make_key(int shape, uint32_t res, uint32_t pile, int ptr, int pass) {
    return (uint64_t)shape | ((uint64_t)res << 11) | ((uint64_t)pile << 18) | ((uint64_t)ptr << 42) |
           ((uint64_t)pass << 47);
}

static inline int bit_length(uint32_t x) { return x ? 32 - __builtin_clz(x) : 0; }

static void ctx_tables(Ctx *c) {
    memset(c->vm_pyr, 0, sizeof c->vm_pyr);
    memset(c->vm_res, 0, sizeof c->vm_res);
    memset(c->vm_pile, 0, sizeof c->vm_pile);
    c->king_pyr = c->king_res = c->king_pile = 0;
    for (int p = 0; p < NPOS; p++) c->vm_pyr[c->pv[p]] |= 1u << p;
    for (int i = 0; i < c->nres; i++) c->vm_res[c->rv[i]] |= 1u << i;
    for (int j = 0; j < c->npile; j++) c->vm_pile[c->sv[j]] |= 1u << j;
    c->king_pyr = c->vm_pyr[13];
    c->king_res = c->vm_res[13];
    c->king_pile = c->vm_pile[13];
    int pile_pairs = c->stock_live && c->waste_live; /* two pile cards can be available together */
    for (int p = 0; p < NPOS; p++) {
        int want = 13 - c->pv[p];
        if (want <= 0) { c->pp_pyr[p] = c->pp_res[p] = c->pp_pile[p] = 0; continue; }
        uint32_t blocked = below_mask[p] | above_mask[p] | (1u << p);
        if (c->covered) blocked &= ~(cover_mask[p] | covers_mask[p]);
        c->pp_pyr[p] = c->vm_pyr[want] & ~blocked;
        c->pp_res[p] = c->vm_res[want];
        c->pp_pile[p] = c->vm_pile[want];
    }
    for (int i = 0; i < c->nres; i++) {
        int want = 13 - c->rv[i];
        if (want <= 0) { c->rp_pyr[i] = c->rp_res[i] = c->rp_pile[i] = 0; continue; }
        c->rp_pyr[i] = c->vm_pyr[want];
        c->rp_res[i] = c->vm_res[want] & ~(1u << i);
        c->rp_pile[i] = c->vm_pile[want];
    }
    for (int j = 0; j < c->npile; j++) {
        int want = 13 - c->sv[j];
        if (want <= 0) { c->sp_pyr[j] = c->sp_res[j] = c->sp_pile[j] = 0; continue; }
        c->sp_pyr[j] = c->vm_pyr[want];
        c->sp_res[j] = c->vm_res[want];
        c->sp_pile[j] = pile_pairs ? c->vm_pile[want] & ~(1u << j) : 0;
    }
}

static inline int cards_left(const Ctx *c, uint64_t k) {
    int n = __builtin_popcount(shape_mask[KEY_SHAPE(k)]);
    if (c->goal_all) n += __builtin_popcount(KEY_RES(k)) + __builtin_popcount(KEY_PILE(k));
    return n;
}

static inline int last_pass(const Ctx *c, uint64_t k) { return c->passes && KEY_PASS(k) >= c->passes; }

/* Pile cards that can still come to an available place. */
static inline uint32_t pile_reachable(const Ctx *c, uint64_t k) {
    uint32_t pile = KEY_PILE(k);
    if (!c->stock_live && !c->waste_live) return 0;
    if (!c->waste_live && last_pass(c, k)) pile &= ~((1u << KEY_PTR(k)) - 1);
    return pile;
}

/* Pyramid cards that can never go. A card is dead when no partner can ever be available with it
 * (every one is gone, lies in its own cone, or is dead itself), and so is every card it covers,
 * which can never come free while it stays: the two rules feed each other until nothing changes. */
static uint32_t dead_pyramid(const Ctx *c, uint32_t pm, uint32_t res, uint32_t pile) {
    uint32_t dead = 0;
    for (;;) {
        uint32_t alive = pm & ~dead, found = dead;
        for (uint32_t rest = alive & ~c->king_pyr; rest; rest &= rest - 1) {
            int p = __builtin_ctz(rest);
            if (!(alive & c->pp_pyr[p]) && !(res & c->pp_res[p]) && !(pile & c->pp_pile[p])) found |= 1u << p;
        }
        /* a cone holds every card it covers, so the new cards' cones need no second look */
        for (uint32_t rest = found & ~dead; rest; rest &= rest - 1) found |= above_mask[__builtin_ctz(rest)] & pm;
        if (found == dead) return dead;
        dead = found;
    }
}

static inline size_t hash_key(uint64_t k, size_t nslots) {
    k ^= k >> 29;
    k *= 0xBF58476D1CE4E5B9ULL;
    k ^= k >> 32;
    return (size_t)(k & (nslots - 1));
}

/* --- the pyramid-alone relaxation ------------------------------------------------------------- */
/* Under goal pyramid, let every pile and reserve card that can still come up be at hand whenever it
 * is wanted (each once, in any order): what is left is the pyramid alone and a bag of partners, small
 * enough to solve exactly, and every real line is a line of it. Its answer for a shape and a bag is a
 * profile: for each count r, the fewest removals that take at least r pyramid cards (RELAX_NEVER
 * when none can). So the most it removes bounds the cards_left a position can reach (it sees through
 * orders the dead-card rules miss: the partners of a card all under cards that wait for it), and the
 * removals it needs bound those of a real line. The bag is a count per rank 1..12 (kings pair with
 * nothing), three bits each. */
#define RELAX_NEVER 255
#define PROFILE 32

typedef struct {
    uint64_t key;             /* shape | bag << 11, plus one; 0 is empty */
    uint8_t profile[PROFILE]; /* beside its key: one probe, one cache miss */
} RelaxSlot;

typedef struct Relax {
    RelaxSlot *slots;
    size_t count, nslots;
} Relax;

#define RELAX_BAG_SHIFT 11

static int relax_init(Mem *m, Relax *rx) {
    rx->nslots = 1 << 12;
    rx->count = 0;
    rx->slots = mem_alloc(m, SITE_RELAX_TABLE, rx->nslots, sizeof(RelaxSlot), 1);
    return rx->slots != NULL;
}

static void relax_free(Mem *m, Relax *rx) {
    mem_free(m, rx->slots);
    rx->slots = NULL;
}

static inline size_t relax_bytes(const Ctx *c) { return c->relax ? c->relax->nslots * sizeof(RelaxSlot) : 0; }

/* Keep the profile under key; its place in the table (good until the next store), or NULL when
 * memory runs out. */
static const uint8_t *relax_store(Mem *m, Relax *rx, uint64_t key, const uint8_t *profile) {
    if ((rx->count + 1) * 2 > rx->nslots) {
        if (m->failed) return NULL; /* memory ran out already: no more tries while the search unwinds */
        size_t nslots = rx->nslots * 2;
        RelaxSlot *slots = mem_alloc(m, SITE_RELAX_GROW, nslots, sizeof(RelaxSlot), 1);
        if (!slots) return NULL;
        for (size_t i = 0; i < rx->nslots; i++) {
            if (!rx->slots[i].key) continue;
            size_t h = hash_key(rx->slots[i].key - 1, nslots);
            while (slots[h].key) h = (h + 1) & (nslots - 1);
            slots[h] = rx->slots[i];
        }
        mem_free(m, rx->slots);
        rx->slots = slots, rx->nslots = nslots;
    }
    size_t h = hash_key(key, rx->nslots);
    while (rx->slots[h].key) h = (h + 1) & (rx->nslots - 1);
    rx->slots[h].key = key + 1;
    memcpy(rx->slots[h].profile, profile, PROFILE);
    rx->count++;
    return rx->slots[h].profile;
}

static inline int bag_has(uint64_t bag, int v) { return (int)(bag >> (3 * (v - 1)) & 7); }

/* Fold a move that takes `taken` cards and leads to the profile at `child` into best. */
static inline void relax_fold(uint8_t *best, const uint8_t *child, int cards, int taken) {
    for (int r = 1; r <= cards; r++) {
        int v = child[r > taken ? r - taken : 0];
        if (v != RELAX_NEVER && v + 1 < best[r]) best[r] = (uint8_t)(v + 1);
    }
}

/* The profile for the shape with the bag (good until the table next grows); NULL when memory runs
 * out. */
static const uint8_t *relax_solve(const Ctx *c, int shape, uint64_t bag) {
    Relax *rx = c->relax;
    uint64_t key = (uint64_t)shape | bag << RELAX_BAG_SHIFT;
    for (size_t h = hash_key(key, rx->nslots); rx->slots[h].key; h = (h + 1) & (rx->nslots - 1))
        if (rx->slots[h].key == key + 1) return rx->slots[h].profile;
    uint32_t pm = shape_mask[shape], free = shape_free[shape];
    int cards = __builtin_popcount(pm);
    uint8_t best[PROFILE];
    memset(best, RELAX_NEVER, sizeof best);
    best[0] = 0;
    const uint8_t *child;
/* the child's profile is read before the next solve can move the table */
#define RELAX_MOVE(next_shape, next_bag, taken)                                            \
    do {                                                                                   \
        if (!(child = relax_solve(c, (next_shape), (next_bag)))) return NULL;              \
        relax_fold(best, child, cards, (taken));                                           \
    } while (0)
    for (uint32_t f = free; f; f &= f - 1) {
        int p = __builtin_ctz(f), v = c->pv[p], after_p = shape_next[shape][p];
        if (v == 13) {
            RELAX_MOVE(after_p, bag, 1);
            continue;
        }
        for (uint32_t g = f & (f - 1); g; g &= g - 1) {
            int q = __builtin_ctz(g);
            if (v + c->pv[q] == 13) RELAX_MOVE(shape_next[after_p][q], bag, 2);
        }
        if (c->covered)
            for (uint32_t qs = covers_mask[p]; qs; qs &= qs - 1) {
                int q = __builtin_ctz(qs);
                if ((pm >> q & 1) && (pm & cover_mask[q]) == (1u << p) && v + c->pv[q] == 13)
                    RELAX_MOVE(shape_next[after_p][q], bag, 2);
            }
        if (bag_has(bag, 13 - v)) RELAX_MOVE(after_p, bag - (1ULL << (3 * (12 - v))), 1);
    }
#undef RELAX_MOVE
    return relax_store(c->mem, rx, key, best);
}

/* The relaxation's profile for the shape with the bag; when memory runs out, a profile of no
 * removals for every count, which bounds nothing (and is never wrong) until the search, which sees
 * the solve marked at its next budget check, unwinds. */
static const uint8_t *relax_with(const Ctx *c, int shape, uint64_t bag) {
    static const uint8_t no_bound[PROFILE];
    const uint8_t *profile = relax_solve(c, shape, bag);
    return profile ? profile : no_bound;
}

/* The most pyramid cards any line from position k removes, by the relaxation. */
static int relax_most_removed(const Ctx *c, uint64_t k) {
    uint32_t pile = pile_reachable(c, k), res = KEY_RES(k);
    uint64_t bag = 0;
    for (int v = 1; v <= 12; v++) {
        uint64_t n = __builtin_popcount(pile & c->vm_pile[v]) + __builtin_popcount(res & c->vm_res[v]);
        bag |= n << (3 * (v - 1));
    }
    const uint8_t *profile = relax_with(c, KEY_SHAPE(k), bag);
    int r = __builtin_popcount(shape_mask[KEY_SHAPE(k)]);
    while (profile[r] == RELAX_NEVER) r--;
    return r;
}

/* Goal cards that can never go: a lower bound on the cards_left any continuation reaches. Besides
 * the dead cards themselves, each removal takes one card of each of a pair of ranks adding to 13,
 * so the cards of one rank beyond the live partners of the other rank stay too. *dead_out gets
 * the dead pyramid cards. */
static int dead_cards_mask(const Ctx *c, uint64_t k, uint32_t *dead_out) {
    uint32_t pm = shape_mask[KEY_SHAPE(k)], res = KEY_RES(k), pile = pile_reachable(c, k);
    uint32_t dead = dead_pyramid(c, pm, res, pile), alive = pm & ~dead;
    int n = __builtin_popcount(dead);
    if (dead_out) *dead_out = dead;
    if (!c->goal_all) {
        for (int v = 1; v <= 12; v++) {
            int w = 13 - v;
            int have = __builtin_popcount(alive & c->vm_pyr[v]);
            if (!have) continue;
            int supply = __builtin_popcount(alive & c->vm_pyr[w]) + __builtin_popcount(res & c->vm_res[w]) +
                         __builtin_popcount(pile & c->vm_pile[w]);
            if (have > supply) n += have - supply;
        }
        return n;
    }
    uint32_t res_dead = 0, pile_dead = 0;
    for (uint32_t rest = res & ~c->king_res; rest; rest &= rest - 1) {
        int i = __builtin_ctz(rest);
        if (!(alive & c->rp_pyr[i]) && !(res & c->rp_res[i]) && !(pile & c->rp_pile[i])) res_dead |= 1u << i;
    }
    for (uint32_t rest = pile & ~c->king_pile; rest; rest &= rest - 1) {
        int j = __builtin_ctz(rest);
        if (!(alive & c->sp_pyr[j]) && !(res & c->sp_res[j]) && !(pile & c->sp_pile[j])) pile_dead |= 1u << j;
    }
    n += __builtin_popcount(KEY_PILE(k) & ~pile); /* can never come up again */
    n += __builtin_popcount(res_dead) + __builtin_popcount(pile_dead);
    uint32_t res_alive = res & ~res_dead, pile_alive = pile & ~pile_dead;
    for (int v = 1; v <= 6; v++) {
        int a = __builtin_popcount(alive & c->vm_pyr[v]) + __builtin_popcount(res_alive & c->vm_res[v]) +
                __builtin_popcount(pile_alive & c->vm_pile[v]);
        int b = __builtin_popcount(alive & c->vm_pyr[13 - v]) + __builtin_popcount(res_alive & c->vm_res[13 - v]) +
                __builtin_popcount(pile_alive & c->vm_pile[13 - v]);
        n += a > b ? a - b : b - a;
    }
    return n;
}

static inline int dead_cards(const Ctx *c, uint64_t k) { return dead_cards_mask(c, k, NULL); }

/* A lower bound on the cards_left any line from k reaches: its dead cards, and under goal pyramid
 * the pyramid cards even the relaxation cannot remove. */
static int left_bound(const Ctx *c, uint64_t k) {
    int dead = dead_cards(c, k);
    if (!c->relax) return dead;
    int stay = __builtin_popcount(shape_mask[KEY_SHAPE(k)]) - relax_most_removed(c, k);
    return stay > dead ? stay : dead;
}

/* Fewest removals that clear the goal's cards: each removal takes at most one card of each of a
 * pair of ranks that add to 13, and a king alone. Changes by at most one a move, so consistent. */
static int removals_for(const Ctx *c, uint32_t pm, uint32_t res, uint32_t pile) {
    int cnt[14];
    for (int v = 1; v <= 13; v++) {
        cnt[v] = __builtin_popcount(pm & c->vm_pyr[v]);
        if (c->goal_all) cnt[v] += __builtin_popcount(res & c->vm_res[v]) + __builtin_popcount(pile & c->vm_pile[v]);
    }
    int h = cnt[13];
    for (int r = 1; r <= 6; r++) h += cnt[r] > cnt[13 - r] ? cnt[r] : cnt[13 - r];
    return h;
}

static inline int removals_needed(const Ctx *c, uint64_t k) {
    return removals_for(c, shape_mask[KEY_SHAPE(k)], KEY_RES(k), KEY_PILE(k));
}

static inline int is_won(const Ctx *c, uint64_t k) {
    if (shape_mask[KEY_SHAPE(k)]) return 0;
    return !c->goal_all || (!KEY_RES(k) && !KEY_PILE(k));
}

/* Remove the cards at locations a and b (b < 0 for a king). */
static uint64_t remove_cards(const Ctx *c, uint64_t k, int a, int b) {
    int s = KEY_SHAPE(k), ptr = KEY_PTR(k), pass = KEY_PASS(k);
    uint32_t res = KEY_RES(k), pile = KEY_PILE(k);
    int stock_top = -1;
    uint32_t above = pile >> ptr;
    if (above) stock_top = ptr + __builtin_ctz(above);
    int locs[2] = {a, b}, waste = 0;
    for (int i = 0; i < 2; i++) {
        int loc = locs[i];
        if (loc < 0) continue;
        if (loc < NPOS) {
            /* a covered pair takes the covering card first, which frees the other */
            if (shape_next[s][loc] < 0) {
                int other = locs[1 - i];
                s = shape_next[s][other];
                locs[1 - i] = -1;
            }
            s = shape_next[s][loc];
        } else if (loc < STOCK_LOC) {
            res &= ~(1u << (loc - RESERVE_LOC));
        } else if (loc == STOCK_LOC) {
            pile &= ~(1u << stock_top);
        } else {
            waste = 1;
        }
    }
    if (waste) {
        pile &= ~(1u << (ptr - 1));
        ptr = bit_length(pile & ((1u << ptr) - 1));
    }
    (void)c;
    return make_key(s, res, pile, ptr, pass);
}

/* The pile configurations that draws and redeals reach from k and that are worth a removal, in
 * the order they come (configuration i is i moves away): the rest of this pass, then the next pass
 * up to where this one stands. Anything later repeats one of these with fewer passes left. With a
 * draw of 1 or 3 cards (solve() takes no other) and at most 24 pile cards that is at most
 * 1 + 24 + 1 + 24 configurations; PILE_CONFIGS bounds the loop all the same. */
#define PILE_CONFIGS 64
static int pile_configs(const Ctx *c, uint64_t k, int *ptrs, int *passes) {
    uint32_t pile = KEY_PILE(k);
    int ptr = KEY_PTR(k), pass = KEY_PASS(k), start = ptr, n = 0, redealt = 0;
    ptrs[n] = ptr;
    passes[n++] = pass;
    while (n < PILE_CONFIGS) {
        /* A king on top of a live stock goes for one move, as a draw would take, and leaves the
         * waste as it was: every configuration that draws it is worse than removing it. */
        if (c->stock_live && (pile >> ptr) && (c->king_pile >> (ptr + __builtin_ctz(pile >> ptr)) & 1)) break;
        if (pile >> ptr) {
            for (int d = 0; d < c->draw; d++) {
                uint32_t rest = pile >> ptr;
                if (!rest) break;
                ptr += __builtin_ctz(rest) + 1;
            }
        } else if (!redealt && ptr && (!c->passes || pass < c->passes)) {
            ptr = 0;
            pass = c->passes ? pass + 1 : 0;
            redealt = 1;
        } else {
            break;
        }
        if (redealt && c->draw == 1 && ptr >= start) break;
        ptrs[n] = ptr;
        passes[n++] = pass;
    }
    return n;
}

/* Every removal worth trying from k, each after the draws and redeals that bring its cards up
 * (draws[i] of them). Removals of pyramid and reserve cards alone are made before any draw: they
 * do not touch the pile, so making them later never helps. A free king in the pyramid (or, when
 * the goal counts it, in the reserve) goes before anything else: it must go, nothing pairs with it,
 * and taking it first never makes a line longer. */
/* One successor more, or -1 from successors() when the arrays (cap entries) are full: the bound above
 * says that never happens, and this check makes sure a wrong bound fails the solve instead of writing
 * past the arrays (the solve raises RuntimeError; see core_solve). */
#define PUSH_KID(key, move, ndraws)                                                                   \
    do {                                                                                              \
        if (n >= cap) return -1;                                                                      \
        kids[n] = (key);                                                                              \
        moves[n] = (move);                                                                            \
        draws[n++] = (uint8_t)(ndraws);                                                               \
    } while (0)

static int successors(const Ctx *c, uint64_t k, uint64_t *kids, uint16_t *moves, uint8_t *draws, int cap) {
    int s = KEY_SHAPE(k);
    uint32_t res = KEY_RES(k), pile = KEY_PILE(k), pm = shape_mask[s], free = shape_free[s];
    int n = 0;
    uint32_t kings = free & c->king_pyr;
    if (kings) {
        int p = __builtin_ctz(kings);
        PUSH_KID(remove_cards(c, k, p, -1), MOVE_REMOVE(p, -1), 0);
        return n;
    }
    if (c->goal_all && (res & c->king_res)) {
        int i = __builtin_ctz(res & c->king_res);
        PUSH_KID(remove_cards(c, k, RESERVE_LOC + i, -1), MOVE_REMOVE(RESERVE_LOC + i, -1), 0);
        return n;
    }
    int loc[MAX_FREE + 7], val[MAX_FREE + 7], na = 0; /* configure() checked every shape's free cards */
    for (uint32_t f = free; f; f &= f - 1) {
        int p = __builtin_ctz(f);
        loc[na] = p;
        val[na++] = c->pv[p];
    }
    for (uint32_t r = res; r; r &= r - 1) {
        int i = __builtin_ctz(r);
        loc[na] = RESERVE_LOC + i;
        val[na++] = c->rv[i];
    }
    for (int i = 0; i < na; i++) {
        if (val[i] == 13) {
            PUSH_KID(remove_cards(c, k, loc[i], -1), MOVE_REMOVE(loc[i], -1), 0);
        }
        for (int j = i + 1; j < na; j++)
            if (val[i] + val[j] == 13) {
                PUSH_KID(remove_cards(c, k, loc[i], loc[j]), MOVE_REMOVE(loc[i], loc[j]), 0);
            }
    }
    if (c->covered) {
        for (uint32_t f = free; f; f &= f - 1) {
            int p = __builtin_ctz(f);
            for (uint32_t q_bits = covers_mask[p]; q_bits; q_bits &= q_bits - 1) {
                int q = __builtin_ctz(q_bits);
                if ((pm >> q & 1) && (pm & cover_mask[q]) == (1u << p) && c->pv[p] + c->pv[q] == 13) {
                    PUSH_KID(remove_cards(c, k, q, p), MOVE_REMOVE(q, p), 0);
                }
            }
        }
    }
    if (!c->stock_live && !c->waste_live) return n;
    uint32_t have = 0; /* the values of the available pyramid and reserve cards */
    for (int i = 0; i < na; i++) have |= 1u << val[i];
    int ptrs[PILE_CONFIGS], passes[PILE_CONFIGS];
    int nc = pile_configs(c, k, ptrs, passes);
    for (int ci = 0; ci < nc; ci++) {
        int ptr = ptrs[ci];
        uint64_t at = make_key(s, res, pile, ptr, passes[ci]);
        int ploc[2], pval[2], np = 0;
        uint32_t above = pile >> ptr;
        if (c->stock_live && above) {
            ploc[np] = STOCK_LOC;
            pval[np++] = c->sv[ptr + __builtin_ctz(above)];
        }
        if (c->waste_live && ptr) {
            ploc[np] = WASTE_LOC;
            pval[np++] = c->sv[ptr - 1];
        }
        for (int a = 0; a < np; a++) {
            if (pval[a] == 13) {
                PUSH_KID(remove_cards(c, at, ploc[a], -1), MOVE_REMOVE(ploc[a], -1), ci);
                continue;
            }
            if (!(have >> (13 - pval[a]) & 1)) continue;
            for (int i = 0; i < na; i++)
                if (val[i] + pval[a] == 13) {
                    PUSH_KID(remove_cards(c, at, loc[i], ploc[a]), MOVE_REMOVE(loc[i], ploc[a]), ci);
                }
        }
        if (np == 2 && pval[0] + pval[1] == 13) {
            PUSH_KID(remove_cards(c, at, STOCK_LOC, WASTE_LOC), MOVE_REMOVE(STOCK_LOC, WASTE_LOC), ci);
        }
    }
    return n;
}

/* --- budgets --------------------------------------------------------------------------------------- */
static int over_budget(Ctx *c) {
    if (c->out_of_budget) return 1;
    if (c->stored > c->max_nodes || c->mem->failed) c->out_of_budget = 1; /* memory: MemoryError at the end */
    else if ((c->nodes & 4095) == 0 && c->deadline > 0 && now_seconds() > c->deadline) c->out_of_budget = 1;
    return c->out_of_budget;
}

enum { OPEN, EXPANDED, CUT };

/* --- node store with an open-addressing index -------------------------------------------------- */
typedef struct {
    uint64_t key;
    uint32_t parent;
    uint16_t move;  /* the removal that made this position */
    uint8_t draws;  /* draws and redeals made before it */
    uint8_t closed; /* OPEN, EXPANDED or CUT */
    uint8_t h;      /* the bound, kept to tell stale queue entries without working it out again */
    uint16_t g;
} Node;

/* The index holds each position's key and cost beside its node's number, so a repeat is judged
 * from the slot alone (the node itself would be a cache miss of its own). Positions hash by their
 * cards only, pass and pointer left out: those of the same cards lie in one run of slots, where
 * the probe for a position also finds the ones it may be dominated by (below). */
typedef struct {
    uint64_t key;
    uint32_t idx; /* node index + 1; 0 is empty */
    uint16_t g;
    uint8_t cut;
    uint8_t pad;
} Slot;

typedef struct {
    Node *nodes;
    size_t count, cap;
    Slot *slots;
    size_t nslots;
} Store;

#define PTR_BITS (31ULL << 42)
#define PASS_BITS (0xFFFFULL << 47)

static inline uint64_t mix_key(uint64_t k) {
    k ^= k >> 29;
    k *= 0xBF58476D1CE4E5B9ULL;
    k ^= k >> 32;
    k *= 0x94D049BB133111EBULL;
    return k ^ (k >> 31);
}

static inline uint64_t cards_hash(uint64_t k) { return mix_key(k & ~(PTR_BITS | PASS_BITS)); }

/* On failure what was made is kept in st, for store_free (st starts zeroed). */
static int store_init(Mem *m, Store *st) {
    st->cap = 1 << 14;
    st->count = 0;
    st->nodes = mem_alloc(m, SITE_STORE_NODES, st->cap, sizeof(Node), 0);
    st->nslots = 1 << 15;
    st->slots = mem_alloc(m, SITE_STORE_INDEX, st->nslots, sizeof(Slot), 1);
    return st->nodes && st->slots;
}

static void store_free(Mem *m, Store *st) {
    mem_free(m, st->nodes);
    mem_free(m, st->slots);
    st->nodes = NULL;
    st->slots = NULL;
}

static int store_grow(Mem *m, Store *st) {
    size_t nslots = st->nslots * 2;
    Slot *slots = mem_alloc(m, SITE_STORE_INDEX_GROW, nslots, sizeof(Slot), 1);
    if (!slots) return 0;
    for (size_t i = 0; i < st->nslots; i++) {
        if (!st->slots[i].idx) continue;
        size_t h = cards_hash(st->slots[i].key) & (nslots - 1);
        while (slots[h].idx) h = (h + 1) & (nslots - 1);
        slots[h] = st->slots[i];
    }
    mem_free(m, st->slots);
    st->slots = slots;
    st->nslots = nslots;
    return 1;
}

/* The draws and redeals from (pass1, ptr1) to (pass2, ptr2) over the same pile; -1 when the second
 * comes before the first. */
static int draws_between(const Ctx *c, uint32_t pile, int pass1, int ptr1, int pass2, int ptr2) {
    uint32_t from = ~((1u << ptr1) - 1), upto = (1u << ptr2) - 1;
    if (!c->passes && ptr1 > ptr2) return __builtin_popcount(pile & from) + 1 + __builtin_popcount(pile & upto);
    if (pass1 > pass2 || (pass1 == pass2 && ptr1 > ptr2)) return -1;
    if (pass1 == pass2) return __builtin_popcount(pile & from & upto);
    return __builtin_popcount(pile & from) + (pass2 - pass1) + (pass2 - pass1 - 1) * __builtin_popcount(pile) +
           __builtin_popcount(pile & upto);
}

/* The slot of position k (whose cards_hash is hash) reached at cost g, adding a node for it when it
 * is new (*added set); NULL with *dominated set when it is no use; NULL alone when memory runs out.
 *
 * Draw dominance: with one card a draw, a position reaches every position of the same cards later
 * in the same pass by drawing, one move a card passed, and those of later passes by redealing too.
 * So a position is no use when one of the same cards from which it can be reached so is known
 * already at a cost that with those draws and redeals is no more than its own: every line through
 * it does as well through the other. */
static Slot *store_visit(const Ctx *c, Store *st, uint64_t k, uint64_t hash, int g, int *added, int *dominated) {
    *added = *dominated = 0;
    if ((st->count + 1) * 2 > st->nslots && !store_grow(c->mem, st)) return NULL;
    uint64_t cards = k & ~(PTR_BITS | PASS_BITS);
    uint32_t pile = KEY_PILE(k);
    int ptr = KEY_PTR(k), pass = KEY_PASS(k), dominance = c->draw == 1;
    size_t h = hash & (st->nslots - 1);
    for (; st->slots[h].idx; h = (h + 1) & (st->nslots - 1)) {
        Slot *slot = &st->slots[h];
        if (slot->key == k) return slot;
        if (dominance && (slot->key & ~(PTR_BITS | PASS_BITS)) == cards) {
            int there = draws_between(c, pile, KEY_PASS(slot->key), KEY_PTR(slot->key), pass, ptr);
            if (there >= 0 && slot->g + there <= g) {
                *dominated = 1;
                return NULL;
            }
        }
    }
    if (st->count == st->cap) {
        size_t cap = st->cap * 2;
        Node *nodes = mem_realloc(c->mem, SITE_STORE_NODES_GROW, st->nodes, cap, sizeof(Node));
        if (!nodes) return NULL;
        st->nodes = nodes;
        st->cap = cap;
    }
    memset(&st->nodes[st->count], 0, sizeof(Node));
    st->nodes[st->count].key = k;
    st->nodes[st->count].g = (uint16_t)g;
    Slot *slot = &st->slots[h];
    slot->key = k;
    slot->idx = (uint32_t)(st->count + 1);
    slot->g = (uint16_t)g;
    slot->cut = 0;
    st->count++;
    *added = 1;
    return slot;
}

/* --- bucket queue by f ------------------------------------------------------------------------- */
typedef struct {
    uint32_t **items;
    size_t *len, *cap;
    int nbuckets;
    size_t bytes;
} Queue;

/* The three arrays always have nbuckets entries each (items' entries NULL or held): on failure
 * (q starts zeroed) queue_free frees what was made. */
static int queue_init(Mem *m, Queue *q, int nbuckets) {
    q->items = mem_alloc(m, SITE_QUEUE_ITEMS, nbuckets, sizeof(uint32_t *), 1);
    q->len = mem_alloc(m, SITE_QUEUE_LEN, nbuckets, sizeof(size_t), 1);
    q->cap = mem_alloc(m, SITE_QUEUE_CAP, nbuckets, sizeof(size_t), 1);
    if (!q->items || !q->len || !q->cap) return 0;
    q->nbuckets = nbuckets;
    return 1;
}

static void queue_free(Mem *m, Queue *q) {
    if (q->items)
        for (int i = 0; i < q->nbuckets; i++) mem_free(m, q->items[i]);
    mem_free(m, q->items);
    mem_free(m, q->len);
    mem_free(m, q->cap);
    q->items = NULL, q->len = q->cap = NULL, q->nbuckets = 0;
}

/* Each array is taken over the moment its realloc succeeds (realloc has freed the old block), and
 * nbuckets moves only once all three have grown, so a failure part way leaves a queue that
 * queue_free frees exactly once. */
static int queue_push(Mem *m, Queue *q, int f, uint32_t idx) {
    if (f >= q->nbuckets) {
        int nb = q->nbuckets;
        while (nb <= f) nb *= 2;
        uint32_t **items = mem_realloc(m, SITE_QUEUE_MORE_ITEMS, q->items, nb, sizeof(uint32_t *));
        if (!items) return 0;
        for (int i = q->nbuckets; i < nb; i++) items[i] = NULL;
        q->items = items;
        size_t *len = mem_realloc(m, SITE_QUEUE_MORE_LEN, q->len, nb, sizeof(size_t));
        if (!len) return 0;
        for (int i = q->nbuckets; i < nb; i++) len[i] = 0;
        q->len = len;
        size_t *cap = mem_realloc(m, SITE_QUEUE_MORE_CAP, q->cap, nb, sizeof(size_t));
        if (!cap) return 0;
        for (int i = q->nbuckets; i < nb; i++) cap[i] = 0;
        q->cap = cap;
        q->nbuckets = nb;
    }
    if (q->len[f] == q->cap[f]) {
        size_t cap = q->cap[f] ? q->cap[f] * 2 : 256;
        uint32_t *items = mem_realloc(m, SITE_QUEUE_BUCKET, q->items[f], cap, sizeof(uint32_t));
        if (!items) return 0;
        q->items[f] = items;
        q->bytes += (cap - q->cap[f]) * sizeof(uint32_t);
        q->cap[f] = cap;
    }
    q->items[f][q->len[f]++] = idx;
    return 1;
}

#define BOUND_BUCKETS 64

static inline int queue_bucket(int f, int h) { return f * BOUND_BUCKETS + (h < BOUND_BUCKETS ? h : BOUND_BUCKETS - 1); }

/* --- A*: fewest moves to a target ------------------------------------------------------------ */
enum { TARGET_WIN, TARGET_LEFT };

typedef struct {
    int found;      /* 1 found, 0 exhausted, -1 budget or memory */
    int moves;      /* length of the line */
    uint16_t *line; /* malloc'ed move codes */
} SearchResult;

#define UNREACHABLE 1000

/* The draws that pass n cards (no division for one card a draw: this runs for every pile card of
 * every position the search meets). */
static inline int draws_for(const Ctx *c, int n) { return c->draw == 1 ? n : (n + c->draw - 1) / c->draw; }

/* Under goal pyramid, the moves that take no pyramid card (draws, redeals, and removals of pile and
 * reserve cards only) that it takes from k until pile card j is available. A pile card that pairs
 * with no pyramid card left ("costly") can leave the stock or the waste only by such a move; so can
 * any card of a face-down stock, which only draws move. Card j in the stock comes up once every card
 * before it has left the stock; card j in the waste either when the cards on it have been removed,
 * or after a redeal, which waits for the whole stock to go, then the cards before j. */
static int pile_moves_to(const Ctx *c, uint32_t pile, uint32_t costly, int ptr, int more_passes, int j) {
    uint32_t waste = (1u << ptr) - 1, before_j = (1u << j) - 1, through_j = (2u << j) - 1;
    if (j >= ptr) {
        if (c->stock_live) return __builtin_popcount(costly & before_j & ~waste);
        if (!c->waste_live) return UNREACHABLE;
        return draws_for(c, __builtin_popcount(pile & through_j & ~waste));
    }
    int best = UNREACHABLE;
    if (c->waste_live) best = __builtin_popcount(costly & waste & ~through_j);
    if (more_passes) {
        int redeal;
        if (c->stock_live) redeal = 1 + __builtin_popcount(costly & ~waste) + __builtin_popcount(costly & before_j);
        else if (c->waste_live)
            redeal = 1 + draws_for(c, __builtin_popcount(pile & ~waste)) + draws_for(c, __builtin_popcount(pile & through_j));
        else redeal = UNREACHABLE;
        if (redeal < best) best = redeal;
    }
    return best;
}

/* Under goal pyramid, the fewest moves any line from k takes to remove `need` pyramid cards. The
 * line uses some pile cards; say the costliest of them to bring up takes T moves that remove no
 * pyramid card (pile_moves_to). Then it makes at least T such moves, and at least the removals the
 * relaxation needs with only the pile cards of cost T or less in the bag. So no line is shorter
 * than the least, over T, of the two together; T need only run over the costs of the cards in the
 * bag, and stops once T with the removals of the whole bag reaches the best found. UNREACHABLE
 * when even the relaxation cannot remove that many. */
static int moves_bound(const Ctx *c, uint64_t k, int need) {
    if (need <= 0) return 0;
    int shape = KEY_SHAPE(k), ptr = KEY_PTR(k), more_passes = !last_pass(c, k);
    uint32_t pm = shape_mask[shape], res = KEY_RES(k), pile = KEY_PILE(k), reachable = pile_reachable(c, k);
    uint32_t pairing = 0;
    for (int v = 1; v <= 12; v++)
        if (pm & c->vm_pyr[v]) pairing |= c->vm_pile[13 - v];
    uint32_t costly = pile & ~pairing;
    /* the bag's cards by cost: the units of the cards of each cost summed (bags add up), and which
     * costs there are (all under 64: at most a redeal and two passes' cards) */
    uint64_t bag = 0, at_cost[64], costs = 0;
    /* each rank's pile cards' costs, cheapest first (UNREACHABLE past the last) */
    int by_rank[14][4];
    for (int v = 1; v <= 13; v++) by_rank[v][0] = by_rank[v][1] = by_rank[v][2] = by_rank[v][3] = UNREACHABLE;
    for (int v = 1; v <= 12; v++) bag += (uint64_t)__builtin_popcount(res & c->vm_res[v]) << (3 * (v - 1));
    for (uint32_t rest = reachable & pairing; rest; rest &= rest - 1) {
        int j = __builtin_ctz(rest), cj = pile_moves_to(c, pile, costly, ptr, more_passes, j);
        if (cj >= UNREACHABLE) continue;
        if (cj > 63) cj = 63; /* cheaper than it is: still a bound */
        uint64_t u = 1ULL << (3 * (c->sv[j] - 1));
        if (costs >> cj & 1) at_cost[cj] += u;
        else at_cost[cj] = u, costs |= 1ULL << cj;
        int *r = by_rank[c->sv[j]], at;
        for (at = 3; at > 0 && r[at - 1] > cj; at--) r[at] = r[at - 1];
        r[at] = cj;
    }
    uint64_t whole = bag;
    for (uint64_t rest = costs; rest; rest &= rest - 1) whole += at_cost[__builtin_ctzll(rest)];
    int fewest = relax_with(c, shape, whole)[need];
    if (fewest == RELAX_NEVER) return UNREACHABLE;
    int best = fewest + (costs ? 63 - __builtin_clzll(costs) : 0);
    /* Below some threshold the bag cannot clear the pyramid, plainly: a card with no partner left in
     * the pyramid or the reserve needs a pile card of the partner rank, and the cards of a rank beyond
     * the pyramid's and the reserve's of the partner rank need as many. Asking the relaxation about
     * those thresholds would only fill its table with answers of never. */
    int start = 0;
    if (need == __builtin_popcount(pm)) {
        for (uint32_t rest = pm & ~c->king_pyr; rest; rest &= rest - 1) {
            int p = __builtin_ctz(rest);
            if (!(pm & c->pp_pyr[p]) && !(res & c->pp_res[p]) && by_rank[13 - c->pv[p]][0] > start)
                start = by_rank[13 - c->pv[p]][0];
        }
        for (int v = 1; v <= 12; v++) {
            int excess = __builtin_popcount(pm & c->vm_pyr[13 - v]) - __builtin_popcount(pm & c->vm_pyr[v]) -
                         __builtin_popcount(res & c->vm_res[v]);
            if (excess > 0 && by_rank[v][excess > 4 ? 3 : excess - 1] > start) start = by_rank[v][excess > 4 ? 3 : excess - 1];
        }
    }
    uint64_t rest = costs;
    for (int t = start; t + fewest < best;) {
        for (; rest && __builtin_ctzll(rest) <= t; rest &= rest - 1) bag += at_cost[__builtin_ctzll(rest)];
        int removals = rest ? relax_with(c, shape, bag)[need] : fewest; /* no card left out: the whole bag */
        if (removals != RELAX_NEVER && removals + t < best) best = removals + t;
        if (!rest) break;
        t = __builtin_ctzll(rest);
    }
    return best;
}

/* The bound of position k towards the target; UNREACHABLE when it cannot reach it. Under goal
 * pyramid, moves_bound towards the target's count of cards (the relaxation in it sees every dead
 * card). Under goal all, a position with more dead cards than the target leaves is cut; towards a
 * win the bound is the removals alone (every removal takes goal cards, and with a live stock no
 * card waits for draws that some removal could not save); towards left_goal cards left, the dead
 * cards stay, so at most left_goal - dead of the live cards stay with them, and leaving a card out
 * takes at most one off the removals the live cards need; and each removal takes at most two cards. */
static int heuristic(const Ctx *c, uint64_t k, int target, int left_goal) {
    if (c->relax) return moves_bound(c, k, cards_left(c, k) - (target == TARGET_WIN ? 0 : left_goal));
    if (target == TARGET_WIN) return dead_cards(c, k) ? UNREACHABLE : removals_needed(c, k);
    int extra = cards_left(c, k) - left_goal;
    if (extra <= 0) return 0;
    uint32_t dead;
    if (dead_cards_mask(c, k, &dead) > left_goal) return UNREACHABLE;
    uint32_t live = shape_mask[KEY_SHAPE(k)] & ~dead;
    int live_bound = removals_for(c, live, KEY_RES(k), KEY_PILE(k)) - (left_goal - __builtin_popcount(dead));
    int h = (extra + 1) / 2;
    return live_bound > h ? live_bound : h;
}

static int at_target(const Ctx *c, uint64_t k, int target, int left_goal) {
    return target == TARGET_WIN ? is_won(c, k) : cards_left(c, k) <= left_goal;
}

/* The moves from the root to node idx: each node's draws and redeals, then its removal (g of
 * them in all); NULL when memory runs out. */
static uint16_t *spell_line(const Ctx *c, Store *st, uint32_t idx, int *length) {
    int hops = 0;
    for (uint32_t at = idx; at != 0; at = st->nodes[at].parent) hops++;
    uint32_t *path = mem_alloc(c->mem, SITE_LINE_PATH, (size_t)hops + 1, sizeof(uint32_t), 0);
    uint16_t *line = mem_alloc(c->mem, SITE_LINE_MOVES, (size_t)st->nodes[idx].g + 1, sizeof(uint16_t), 0);
    if (!path || !line) {
        mem_free(c->mem, path);
        mem_free(c->mem, line);
        return NULL;
    }
    int i = hops;
    for (uint32_t at = idx; at != 0; at = st->nodes[at].parent) path[--i] = at;
    int n = 0;
    uint64_t k = st->nodes[0].key;
    for (int h = 0; h < hops; h++) {
        const Node *node = &st->nodes[path[h]];
        for (int d = 0; d < node->draws; d++) {
            int s = KEY_SHAPE(k), ptr = KEY_PTR(k), pass = KEY_PASS(k);
            uint32_t res = KEY_RES(k), pile = KEY_PILE(k);
            if (pile >> ptr) {
                for (int t = 0; t < c->draw; t++) {
                    uint32_t rest = pile >> ptr;
                    if (!rest) break;
                    ptr += __builtin_ctz(rest) + 1;
                }
                line[n++] = MOVE_DRAW;
            } else {
                ptr = 0;
                pass = c->passes ? pass + 1 : 0;
                line[n++] = MOVE_REDEAL;
            }
            k = make_key(s, res, pile, ptr, pass);
        }
        line[n++] = node->move;
        k = node->key;
    }
    mem_free(c->mem, path);
    *length = n;
    return line;
}

/* out->line is held in c->mem: the caller frees it. Everything else is freed here, on every way
 * out (each structure starts zeroed, so a failure part way frees exactly what was made). */
static void astar(Ctx *c, uint64_t root, int target, int left_goal, SearchResult *out) {
    Mem *m = c->mem;
    Store st = {0};
    Queue q = {0};
    uint64_t *kids = mem_alloc(m, SITE_ASTAR_KIDS, MAX_KIDS, sizeof(uint64_t), 0);
    uint64_t *hashes = mem_alloc(m, SITE_ASTAR_HASHES, MAX_KIDS, sizeof(uint64_t), 0);
    uint16_t moves[MAX_KIDS];
    uint8_t draws[MAX_KIDS];
    out->found = -1;
    out->moves = 0;
    out->line = NULL;
    int added, dominated;
    if (!kids || !hashes || !store_init(m, &st) || !queue_init(m, &q, 64 * BOUND_BUCKETS)) goto done;
    if (!store_visit(c, &st, root, cards_hash(root), 0, &added, &dominated)) goto done;
    int root_h = heuristic(c, root, target, left_goal);
    st.nodes[0].h = (uint8_t)(root_h < UNREACHABLE ? root_h : 255);
    if (root_h >= UNREACHABLE) {
        out->found = 0;
        goto done;
    }
    if (!queue_push(m, &q, queue_bucket(root_h, root_h), 0)) goto done;
    /* Buckets by f, and within one f by the bound: of equal f the position nearest its target
     * comes first, which finds the target among them sooner. A child of equal f has a smaller
     * bound, so its bucket can lie below the current one: the scan steps back to it. */
    for (int b = 0; b < q.nbuckets;) {
        if (!q.len[b]) {
            b++;
            continue;
        }
        uint32_t idx = q.items[b][--q.len[b]];
        Node *node = &st.nodes[idx];
        if (node->closed) continue;
        uint64_t k = node->key;
        int g = node->g;
        if (queue_bucket(g + node->h, node->h) != b) continue; /* a stale entry */
        if (at_target(c, k, target, left_goal)) {
            out->line = spell_line(c, &st, idx, &out->moves);
            out->found = out->line ? 1 : -1;
            goto done;
        }
        node->closed = EXPANDED;
        c->nodes++;
        c->stored = st.count;
        size_t bytes = st.cap * sizeof(Node) + st.nslots * sizeof(Slot) + q.bytes + relax_bytes(c);
        if (bytes > c->peak_bytes) c->peak_bytes = bytes;
        if (over_budget(c)) goto done;
        int n = successors(c, k, kids, moves, draws, MAX_KIDS);
        if (n < 0) {
            c->kids_overflow = 1;
            goto done;
        }
        /* the index is far bigger than the caches: ask for every child's slots at once, so the
         * misses overlap instead of coming one after another */
        for (int i = 0; i < n; i++) {
            hashes[i] = cards_hash(kids[i]);
            __builtin_prefetch(&st.slots[hashes[i] & (st.nslots - 1)]);
        }
        for (int i = 0; i < n; i++) {
            uint64_t kid = kids[i];
            int cost = g + draws[i] + 1;
            Slot *slot = store_visit(c, &st, kid, hashes[i], cost, &added, &dominated);
            if (!slot) {
                if (dominated) continue;
                goto done;
            }
            /* a position expanded already comes back when a shorter way to it turns up, which keeps
             * the lines fewest-moves even where the bound is not consistent */
            if (!added && (slot->cut || slot->g <= cost)) continue;
            uint32_t j = slot->idx - 1;
            Node *child = &st.nodes[j];
            slot->g = child->g = (uint16_t)cost;
            child->closed = OPEN;
            child->parent = idx;
            child->move = moves[i];
            child->draws = draws[i];
            int h;
            if (!added) h = child->h; /* the bound depends on the position alone */
            else h = heuristic(c, kid, target, left_goal);
            if (h >= UNREACHABLE) {
                child->closed = CUT; /* it can never reach the target */
                slot->cut = 1;
                continue;
            }
            child->h = (uint8_t)h;
            int kid_bucket = queue_bucket(cost + h, h);
            if (!queue_push(m, &q, kid_bucket, j)) goto done;
            if (kid_bucket < b) b = kid_bucket;
        }
    }
    out->found = 0;
done:
    mem_free(m, kids);
    mem_free(m, hashes);
    store_free(m, &st);
    queue_free(m, &q);
}

/* --- depth-first search for the fewest cards_left ------------------------------------------------ */
/* Under one card a draw, a position reaches by drawing every position of the same cards later in
 * the same pass, and by redealing every one of a later pass; so of two positions with the same
 * cards, the one earlier in (pass, pointer) order reaches all the other does. The visited table
 * keeps, for the cards, the earliest (pass, pointer) searched. With three cards a draw the pointer
 * stays in the key and only an earlier pass dominates. */
typedef struct {
    uint64_t *keys; /* key + 1; 0 is empty */
    uint32_t *order;
    size_t count, nslots;
} Seen;

/* On failure what was made is kept in sn, for seen_free (sn starts zeroed). */
static int seen_init(Mem *m, Seen *sn) {
    sn->nslots = 1 << 15;
    sn->count = 0;
    sn->keys = mem_alloc(m, SITE_SEEN_KEYS, sn->nslots, sizeof(uint64_t), 1);
    sn->order = mem_alloc(m, SITE_SEEN_ORDER, sn->nslots, sizeof(uint32_t), 0);
    return sn->keys && sn->order;
}

static void seen_free(Mem *m, Seen *sn) {
    mem_free(m, sn->keys);
    mem_free(m, sn->order);
    sn->keys = NULL;
    sn->order = NULL;
}

/* 1 when (key, order) is new or earlier than what was seen (and is now recorded), 0 when dominated,
 * -1 out of memory (the table stays as it was, whole). */
static int seen_visit(Mem *m, Seen *sn, uint64_t key, uint32_t order) {
    size_t h = hash_key(key, sn->nslots);
    while (sn->keys[h]) {
        if (sn->keys[h] == key + 1) {
            if (sn->order[h] <= order) return 0;
            sn->order[h] = order;
            return 1;
        }
        h = (h + 1) & (sn->nslots - 1);
    }
    sn->keys[h] = key + 1;
    sn->order[h] = order;
    sn->count++;
    if (sn->count * 2 > sn->nslots) {
        size_t nslots = sn->nslots * 2;
        uint64_t *keys = mem_alloc(m, SITE_SEEN_GROW_KEYS, nslots, sizeof(uint64_t), 1);
        uint32_t *ord = mem_alloc(m, SITE_SEEN_GROW_ORDER, nslots, sizeof(uint32_t), 0);
        if (!keys || !ord) {
            mem_free(m, keys);
            mem_free(m, ord);
            return -1;
        }
        for (size_t i = 0; i < sn->nslots; i++) {
            if (!sn->keys[i]) continue;
            size_t g = hash_key(sn->keys[i] - 1, nslots);
            while (keys[g]) g = (g + 1) & (nslots - 1);
            keys[g] = sn->keys[i];
            ord[g] = sn->order[i];
        }
        mem_free(m, sn->keys);
        mem_free(m, sn->order);
        sn->keys = keys;
        sn->order = ord;
        sn->nslots = nslots;
    }
    return 1;
}

static int seen_check(const Ctx *c, Seen *sn, uint64_t k) {
    uint64_t cards = k & ((1ULL << 42) - 1);
    uint32_t pass = (uint32_t)KEY_PASS(k), ptr = (uint32_t)KEY_PTR(k);
    if (c->draw == 1) return seen_visit(c->mem, sn, cards, pass << 5 | ptr);
    return seen_visit(c->mem, sn, cards | (uint64_t)ptr << 42, pass);
}

typedef struct {
    int next, count;
    uint64_t *kids;
} Frame;

/* Frames the depth-first stack starts with; it doubles as the search goes deeper (a line takes at
 * most one step a card, 52 in all, so it grows once or twice at most). */
#define STACK_START 16

/* The fewest cards_left reachable from root (0: the goal can be reached); -1 on budget or memory.
 * Frees everything it made on every way out. */
static int least_left(Ctx *c, uint64_t root) {
    Mem *m = c->mem;
    Seen sn = {0};
    int result = -1, cap = STACK_START, depth = 0, with_kids = 0;
    uint16_t moves[MAX_KIDS];
    uint8_t draws[MAX_KIDS];
    Frame *stack = mem_alloc(m, SITE_STACK, cap, sizeof(Frame), 1);
    int best = cards_left(c, root);
    if (!stack || !seen_init(m, &sn)) goto done;
    if (best == 0 || left_bound(c, root) >= best) { result = best; goto done; }
    if (seen_check(c, &sn, root) < 0) goto done;
    stack[0].kids = mem_alloc(m, SITE_FRAME_KIDS, MAX_KIDS, sizeof(uint64_t), 0);
    if (!stack[0].kids) goto done;
    with_kids = 1;
    stack[0].count = successors(c, root, stack[0].kids, moves, draws, MAX_KIDS);
    if (stack[0].count < 0) {
        c->kids_overflow = 1;
        goto done;
    }
    c->nodes++;
    while (depth >= 0) {
        Frame *fr = &stack[depth];
        if (fr->next == fr->count) { depth--; continue; }
        uint64_t kid = fr->kids[fr->next++];
        int left = cards_left(c, kid);
        if (left < best) {
            best = left;
            if (best == 0) break;
        }
        if (left_bound(c, kid) >= best) continue;
        int fresh = seen_check(c, &sn, kid);
        if (fresh < 0) goto done;
        if (!fresh) continue;
        c->nodes++;
        c->stored = sn.count;
        size_t bytes = sn.nslots * (sizeof(uint64_t) + sizeof(uint32_t)) + (size_t)cap * sizeof(Frame) +
                       (size_t)with_kids * MAX_KIDS * sizeof(uint64_t) + relax_bytes(c);
        if (bytes > c->peak_bytes) c->peak_bytes = bytes;
        if (over_budget(c)) goto done;
        if (depth + 1 == cap) {
            Frame *grown = mem_realloc(m, SITE_STACK_GROW, stack, (size_t)cap * 2, sizeof(Frame));
            if (!grown) goto done; /* stack is still held, whole */
            memset(grown + cap, 0, cap * sizeof(Frame));
            stack = grown;
            cap *= 2;
        }
        depth++;
        fr = &stack[depth];
        if (!fr->kids) {
            if (!(fr->kids = mem_alloc(m, SITE_FRAME_KIDS, MAX_KIDS, sizeof(uint64_t), 0))) goto done;
            with_kids++;
        }
        fr->next = 0;
        fr->count = successors(c, kid, fr->kids, moves, draws, MAX_KIDS);
        if (fr->count < 0) {
            c->kids_overflow = 1;
            goto done;
        }
    }
    result = best;
done:
    if (stack)
        for (int i = 0; i < cap; i++) mem_free(m, stack[i].kids);
    mem_free(m, stack);
    seen_free(m, &sn);
    return result;
}

/* --- the entry point ------------------------------------------------------------------------------ */
/* The engine's bounds (docs/rules.md, section 3; engine/rules.py). */
#define MAX_PASSES 9
#define MAX_NODES_LIMIT 4000000000LL /* node numbers are 32-bit; a search stores a few thousand past it */

/* Card values 1..13, exactly `want` of them (one of two counts when want2 >= 0), into dest. */
static int read_values(PyObject *seq, const char *name, int *dest, int want, int want2, int *len) {
    PyObject *fast = PySequence_Fast(seq, "card values must be a sequence");
    if (!fast) return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n != want && n != want2) {
        if (want2 >= 0) PyErr_Format(PyExc_ValueError, "%s must hold %d or %d card values; got %zd", name, want, want2, n);
        else PyErr_Format(PyExc_ValueError, "%s must hold %d card values; got %zd", name, want, n);
        Py_DECREF(fast);
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long long v;
        if (!int_arg(PySequence_Fast_GET_ITEM(fast, i), "a card value", 1, 13, &v)) {
            Py_DECREF(fast);
            return 0;
        }
        dest[i] = (int)v;
    }
    *len = (int)n;
    Py_DECREF(fast);
    return 1;
}

static PyObject *line_to_list(const uint16_t *line, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *code = PyLong_FromLong(line[i]);
        if (!code) {
            Py_DECREF(list); /* the items set so far go with it; the rest are NULL, which it skips */
            return NULL;
        }
        PyList_SET_ITEM(list, i, code);
    }
    return list;
}

/* Every argument of solve(), checked; ValueError (TypeError for no integer) naming the first bad one. */
static int solve_args(PyObject *const *a, Ctx *c, int *shape, uint64_t *root, double *budget) {
    long long v[13];
    int n28;
    if (!read_values(a[0], "pyramid_values", c->pv, NPOS, -1, &n28) ||
        !read_values(a[1], "reserve_values", c->rv, 0, 7, &c->nres) ||
        !read_values(a[2], "pile_values", c->sv, 24 - c->nres, -1, &c->npile))
        return 0;
    int per_value[14] = {0};
    for (int p = 0; p < NPOS; p++) per_value[c->pv[p]]++;
    for (int i = 0; i < c->nres; i++) per_value[c->rv[i]]++;
    for (int j = 0; j < c->npile; j++) per_value[c->sv[j]]++;
    for (int r = 1; r <= 13; r++)
        if (per_value[r] != 4) {
            PyErr_Format(PyExc_ValueError, "the card values are no deck: %d cards of value %d, not 4", per_value[r], r);
            return 0;
        }
    if (!int_arg(a[3], "passes", 0, MAX_PASSES, &v[0]) || !pair_arg(a[4], "draw", 1, 3, &v[1]) ||
        !int_arg(a[5], "stock_live", 0, 1, &v[2]) || !int_arg(a[6], "waste_live", 0, 1, &v[3]) ||
        !int_arg(a[7], "goal_all", 0, 1, &v[4]) || !int_arg(a[8], "covered", 0, 1, &v[5]) ||
        !int_arg(a[9], "pyramid_mask", 0, FULL_PYRAMID, &v[6]) ||
        !int_arg(a[10], "reserve_mask", 0, (1LL << c->nres) - 1, &v[7]) ||
        !int_arg(a[11], "pile_mask", 0, (1LL << c->npile) - 1, &v[8]) ||
        !int_arg(a[12], "pointer", 0, c->npile, &v[9]) ||
        !int_arg(a[13], "pass_no", v[0] ? 1 : 0, v[0] ? v[0] : LLONG_MAX, &v[10]) ||
        !int_arg(a[14], "max_nodes", 0, MAX_NODES_LIMIT, &v[11]))
        return 0;
    if (v[1] == 3 && v[2]) {
        PyErr_SetString(PyExc_ValueError, "draw 3 with a live stock top is no rule set");
        return 0;
    }
    *shape = shape_lookup((uint32_t)v[6]);
    if (*shape < 0) {
        PyErr_Format(PyExc_ValueError, "pyramid_mask %lld is no shape a game can reach", v[6]);
        return 0;
    }
    int pointer = (int)v[9];
    if (pointer && !((uint64_t)v[8] >> (pointer - 1) & 1)) {
        PyErr_Format(PyExc_ValueError, "pointer %d must sit just above the waste top: pile card %d is gone", pointer,
                     pointer - 1);
        return 0;
    }
    *budget = PyFloat_AsDouble(a[15]);
    if (*budget == -1.0 && PyErr_Occurred()) return 0;
    if (!(*budget >= 0)) {
        PyErr_Format(PyExc_ValueError, "budget_seconds must be 0 (none) or more; got %R", a[15]);
        return 0;
    }
    c->passes = (int)v[0], c->draw = (int)v[1], c->stock_live = (int)v[2], c->waste_live = (int)v[3];
    c->goal_all = (int)v[4], c->covered = (int)v[5];
    c->max_nodes = (uint64_t)v[11];
    *root = make_key(*shape, (uint32_t)v[7], (uint32_t)v[8], pointer, c->passes ? (int)v[10] : 0);
    return 1;
}

/* solve(pyramid_values, reserve_values, pile_values, passes, draw, stock_live, waste_live, goal_all,
 *       covered, pyramid_mask, reserve_mask, pile_mask, pointer, pass_no, max_nodes, budget_seconds)
 * -> (status, won, best_left, line, nodes, peak_bytes)
 *    status 0 exact, 1 out of budget; won 1 when the goal can be reached; line: move codes.
 * pass_no counts from 1 under limited passes and is ignored (any number from 0) under unlimited
 * ones (passes 0). MemoryError when memory runs out, after everything is freed. */
static PyObject *core_solve(PyObject *self, PyObject *args) {
    PyObject *a[16];
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOO:solve", &a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6], &a[7],
                          &a[8], &a[9], &a[10], &a[11], &a[12], &a[13], &a[14], &a[15]))
        return NULL;
    if (!nshapes) {
        PyErr_SetString(PyExc_RuntimeError, "configure() the geometry first");
        return NULL;
    }
    Ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    Ctx *c = &ctx;
    int shape;
    uint64_t root;
    double budget;
    if (!solve_args(a, c, &shape, &root, &budget)) return NULL;
    Mem mem;
    memset(&mem, 0, sizeof mem);
#ifdef PYRAMID_TEST_HOOKS
    mem.fail_at = hook_fail_at, mem.fail_site = hook_fail_site;
#else
    mem.fail_at = -1, mem.fail_site = -1;
#endif
    c->mem = &mem;
    ctx_tables(c);
    Relax relax = {0};
    SearchResult win = {0}, reach = {0};
    int status = 1, won = 0, best_left = -1;
    if (!c->goal_all) c->relax = &relax;
    solves_running++;
    Py_BEGIN_ALLOW_THREADS
    if (!c->relax || relax_init(&mem, &relax)) {
        c->deadline = budget > 0 ? now_seconds() + budget : 0;
        double t0 = now_seconds();
        int least = least_left(c, root);
        double t1 = now_seconds();
        uint64_t n1 = c->nodes;
        if (least == 0) {
            astar(c, root, TARGET_WIN, 0, &win);
            if (win.found == 1) status = 0, won = 1, best_left = 0;
        } else if (least > 0) {
            astar(c, root, TARGET_LEFT, least, &reach);
            if (reach.found == 1) status = 0, best_left = least;
        }
        if (getenv("PYRAMID_CORE_DEBUG"))
            fprintf(stderr, "least %d: %.3fs %llu nodes; line search %.3fs %llu nodes; relaxation %zu\n", least,
                    t1 - t0, (unsigned long long)n1, now_seconds() - t1, (unsigned long long)(c->nodes - n1),
                    relax.count);
    }
    Py_END_ALLOW_THREADS
    solves_running--;
    PyObject *line = NULL;
    if (!mem.failed) {
        if (status == 0) line = won ? line_to_list(win.line, win.moves) : line_to_list(reach.line, reach.moves);
        else line = PyList_New(0);
    }
    mem_free(&mem, win.line);
    mem_free(&mem, reach.line);
    relax_free(&mem, &relax);
#ifdef PYRAMID_TEST_HOOKS
    last_mem = mem;
#endif
    if (mem.failed) {
        Py_XDECREF(line);
        return PyErr_NoMemory();
    }
    if (c->kids_overflow) {
        Py_XDECREF(line);
        PyErr_SetString(PyExc_RuntimeError, "a position has more successors than MAX_KIDS: the solve stopped");
        return NULL;
    }
    if (!line) return NULL;
    unsigned long long nodes = c->nodes, peak = c->peak_bytes;
    return Py_BuildValue("iiiNKK", status, won, best_left, line, nodes, peak);
}

#ifdef PYRAMID_TEST_HOOKS
/* --- test hooks (test builds only) ------------------------------------------------------------------ */
/* _successors(*solve_arguments, cap) -> [(move, draws, pyramid_mask, reserve_mask, pile_mask, pointer,
 * pass_no), ...]: the children successors() makes of the position solve() would start from (the
 * arguments are solve()'s, checked alike; max_nodes and budget_seconds are ignored), each with its
 * move code and the draws and redeals made before it. With cap below the number of children it
 * raises RuntimeError, as a solve does: the bound check in successors(), seen from outside. Tests
 * compare these children with the engine's legal moves (tests/solver/test_perft.py). */
static PyObject *core_successors(PyObject *self, PyObject *args) {
    PyObject *a[16];
    int cap;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOOi:_successors", &a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6],
                          &a[7], &a[8], &a[9], &a[10], &a[11], &a[12], &a[13], &a[14], &a[15], &cap))
        return NULL;
    if (!nshapes) {
        PyErr_SetString(PyExc_RuntimeError, "configure() the geometry first");
        return NULL;
    }
    if (cap < 0 || cap > MAX_KIDS) {
        PyErr_Format(PyExc_ValueError, "cap must be from 0 to %d; got %d", MAX_KIDS, cap);
        return NULL;
    }
    Ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    Ctx *c = &ctx;
    int shape;
    uint64_t root;
    double budget;
    if (!solve_args(a, c, &shape, &root, &budget)) return NULL;
    Mem mem;
    memset(&mem, 0, sizeof mem);
    mem.fail_at = -1, mem.fail_site = -1;
    c->mem = &mem;
    ctx_tables(c);
    static uint64_t kids[MAX_KIDS];
    static uint16_t moves[MAX_KIDS];
    static uint8_t draws[MAX_KIDS];
    int n = successors(c, root, kids, moves, draws, cap);
    if (n < 0) {
        PyErr_Format(PyExc_RuntimeError, "a position has more successors than the cap of %d", cap);
        return NULL;
    }
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        uint64_t k = kids[i];
        PyObject *item = Py_BuildValue("iiiiiii", (int)moves[i], (int)draws[i], (int)shape_mask[KEY_SHAPE(k)],
                                       (int)KEY_RES(k), (int)KEY_PILE(k), (int)KEY_PTR(k), (int)KEY_PASS(k));
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

/* _fail_alloc_after(n, site=None): a test hook. In every later solve, allocation number n (counted
 * from 0, over all sites or over the named site's only) fails as if memory had run out; n None or
 * negative turns it off. Returns None. */
static PyObject *core_fail_alloc_after(PyObject *self, PyObject *args) {
    PyObject *n_obj, *site_obj = Py_None;
    if (!PyArg_ParseTuple(args, "O|O:_fail_alloc_after", &n_obj, &site_obj)) return NULL;
    long long n = -1;
    int site = -1;
    if (n_obj != Py_None && !int_arg(n_obj, "n", LLONG_MIN, LLONG_MAX, &n)) return NULL;
    if (site_obj != Py_None) {
        const char *name = PyUnicode_Check(site_obj) ? PyUnicode_AsUTF8(site_obj) : NULL;
        if (!name) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "site must be a str or None");
            return NULL;
        }
        for (int i = 0; i < NSITES && site < 0; i++)
            if (!strcmp(name, site_names[i])) site = i;
        if (site < 0) {
            PyErr_Format(PyExc_ValueError, "no allocation site %R; see _allocation_sites()", site_obj);
            return NULL;
        }
    }
    hook_fail_at = n < 0 ? -1 : n;
    hook_fail_site = n < 0 ? -1 : site;
    Py_RETURN_NONE;
}

/* _allocations() -> (allocations by site of the last solve, blocks it still held at its end) */
static PyObject *core_allocations(PyObject *self, PyObject *unused) {
    PyObject *sites = PyDict_New();
    if (!sites) return NULL;
    for (int i = 0; i < NSITES; i++) {
        PyObject *count = PyLong_FromUnsignedLongLong(last_mem.at[i]);
        if (!count || PyDict_SetItemString(sites, site_names[i], count) < 0) {
            Py_XDECREF(count);
            Py_DECREF(sites);
            return NULL;
        }
        Py_DECREF(count);
    }
    return Py_BuildValue("NL", sites, last_mem.held);
}

/* _allocation_sites() -> the names of every allocation site, in the order of the source */
static PyObject *core_allocation_sites(PyObject *self, PyObject *unused) {
    PyObject *names = PyTuple_New(NSITES);
    if (!names) return NULL;
    for (int i = 0; i < NSITES; i++) {
        PyObject *name = PyUnicode_FromString(site_names[i]);
        if (!name) {
            Py_DECREF(names);
            return NULL;
        }
        PyTuple_SET_ITEM(names, i, name);
    }
    return names;
}
#endif /* PYRAMID_TEST_HOOKS */

static PyMethodDef core_methods[] = {
    {"configure", core_configure, METH_VARARGS, "Set the pyramid geometry: cover, covers, below and above masks."},
    {"solve", core_solve, METH_VARARGS, "Solve one position; see engine/solver/fast.py."},
#ifdef PYRAMID_TEST_HOOKS
    {"_fail_alloc_after", core_fail_alloc_after, METH_VARARGS,
     "Test hook: allocation n (from 0; of one site when named) of every later solve fails. None turns it off."},
    {"_allocations", core_allocations, METH_NOARGS,
     "Test hook: (allocations by site, blocks still held) of the last solve."},
    {"_allocation_sites", core_allocation_sites, METH_NOARGS, "Test hook: the names of the allocation sites."},
    {"_successors", core_successors, METH_VARARGS,
     "Test hook: the children successors() makes of a position given as solve()'s arguments, and a cap."},
#endif
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {PyModuleDef_HEAD_INIT, "_core", "The solver's compiled search.", -1, core_methods};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&core_module); }
