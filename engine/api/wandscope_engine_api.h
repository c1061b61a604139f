/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The versioned C ABI of an engine build loaded as a plugin (docs/PLUGIN_ABI.md).
 *
 * A plugin exports exactly one symbol, `wandscope_engine_api`. The host calls it with the ABI
 * version it speaks and gets back a table of function pointers (or NULL when the plugin cannot
 * serve that version). Plain C types only: no C++ types, exceptions or allocators cross the
 * boundary, so a plugin built from an older revision, with other flags, or even another compiler,
 * can be loaded by a newer workbench.
 *
 * Versioning rules:
 *  - The table is append-only within a layout: version N+1 adds fields after version N's last
 *    field and never changes or removes one. `struct_size` tells the host which fields exist; a
 *    field at or beyond `struct_size` is absent.
 *  - `abi_version` is the version the plugin implements; `abi_compat` is the oldest version whose
 *    layout this table still satisfies. A host speaking version H accepts the table iff
 *    abi_compat <= H and abi_version >= the oldest version the host still supports. Anything else
 *    is refused with a message naming both versions; nothing is called.
 *  - Strings passed in are UTF-8 and NUL-terminated; strings and arrays handed out stay valid
 *    until the documented release point (the result's free, the index's close, or forever for
 *    build identity and counter names).
 *  - No function throws or aborts on bad input: failures return NULL / nonzero and leave a
 *    message for `last_error` (per thread).
 *  - Thread safety: `search` may be called concurrently on one index from any number of threads;
 *    `open_index`/`build_index`/`close_index` must not race with searches of the same index.
 */
#ifndef WANDSCOPE_ENGINE_API_H
#define WANDSCOPE_ENGINE_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WANDSCOPE_ENGINE_ABI_VERSION 1u
#define WANDSCOPE_ENGINE_API_SYMBOL "wandscope_engine_api"

/* Opaque handles. */
typedef struct wandscope_index wandscope_index;

/* Who built this engine; every string is static (never freed) and never NULL ("" if unknown). */
typedef struct wandscope_build_info {
  uint32_t struct_size;
  const char* build_id;     /* identifies the build in reports: "<version>+<commit12>[-dirty]" */
  const char* version;      /* project version, "0.1.0" */
  const char* git_commit;   /* full commit hash at build time, or "unknown" */
  int32_t git_dirty;        /* 1 when the tree had uncommitted changes (or git was unavailable) */
  const char* compiler;     /* "g++ 12.2.0" */
  const char* flags;        /* CMAKE_CXX_FLAGS + build type flags */
  const char* build_type;   /* "Release" */
  const char* simd_target;  /* the SIMD target the kernels run on now ("avx2", ...) */
} wandscope_build_info;

/* One query's answer. Arrays have `hit_count` / `counter_count` entries and stay valid until
   free_result. Hits are in rank order (score descending, then doc id ascending). */
typedef struct wandscope_result {
  uint32_t struct_size;
  uint32_t hit_count;
  const uint32_t* docs;           /* internal doc ids (corpus order, from 0) */
  const float* scores;            /* f32 BM25 scores, bit-exact as the engine computed them */
  uint32_t counter_count;
  const char* const* counter_names;  /* snake_case, docs/COUNTERS.md; same as counter_name(i) */
  const uint64_t* counter_values;
  const char* algorithm;          /* the path actually taken ("bulk-and", ...) */
  const char* explain_json;       /* NULL unless WANDSCOPE_SEARCH_EXPLAIN was asked for */
} wandscope_result;

#define WANDSCOPE_SEARCH_EXPLAIN 1u

/* The function table, version 1. */
typedef struct wandscope_engine_api_v1 {
  uint32_t struct_size;
  uint32_t abi_version;
  uint32_t abi_compat;

  /* Build identity; static. */
  const wandscope_build_info* (*build_info)(void);
  /* The calling thread's last error message ("" when none). Valid until the thread's next call. */
  const char* (*last_error)(void);

  /* Opens an existing index directory. NULL on error. */
  wandscope_index* (*open_index)(const char* dir);
  /* Builds an index from a corpus file into out_dir (replacing it atomically) and opens it.
     options: "analyzer=plain|english,threads=N,format=beir|msmarco,store_text=on|off" (any may be
     omitted; "" for defaults). NULL on error. */
  wandscope_index* (*build_index)(const char* corpus, const char* out_dir, const char* options);
  /* Releases an index; NULL is ignored. */
  void (*close_index)(wandscope_index* index);
  uint64_t (*doc_count)(const wandscope_index* index);
  /* The corpus id of an internal doc id ("" when out of range); valid until close_index. */
  const char* (*external_id)(const wandscope_index* index, uint32_t doc);

  /* The per-query counters every result reports, in this order. */
  uint32_t (*counter_count)(void);
  const char* (*counter_name)(uint32_t i); /* NULL when i >= counter_count() */

  /* Runs one query. op: "and" | "or"; algorithm: "auto", "exhaustive", "wand", "bmw",
     "maxscore", "bmm", "taat", "block-max-and", "bulk-and" (NULL or "" = "auto"); k >= 1; options:
     SearchOptions switches "bulk_and=off,freq_prune=on,..." (NULL or "" = defaults); flags:
     WANDSCOPE_SEARCH_EXPLAIN. NULL on error (unknown option names are errors naming the valid
     ones, so an older build refuses a switch it does not have). */
  wandscope_result* (*search)(const wandscope_index* index, const char* text, const char* op,
                              const char* algorithm, uint32_t k, const char* options, uint32_t flags);
  /* Releases a result; NULL is ignored. */
  void (*free_result)(wandscope_result* result);
} wandscope_engine_api_v1;

/* The one exported symbol. Returns NULL when the plugin cannot serve a host speaking
   requested_version. */
typedef const wandscope_engine_api_v1* (*wandscope_engine_api_fn)(uint32_t requested_version);

#ifdef __cplusplus
}
#endif

#endif /* WANDSCOPE_ENGINE_API_H */
