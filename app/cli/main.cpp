// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli_support.h"

int main(int argc, char** argv) { return wandscope::app::runCli(argc, argv); }
