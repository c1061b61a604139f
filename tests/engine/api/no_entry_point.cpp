// SPDX-License-Identifier: GPL-3.0-or-later
// A shared library that is not an engine plugin: it lacks `wandscope_engine_api`.
extern "C" __attribute__((visibility("default"))) int wandscope_not_the_entry_point() { return 42; }
