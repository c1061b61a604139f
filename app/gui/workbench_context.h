// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace wandscope::app {

class HistoryController;
class IndexController;
class LoadController;
class QueryController;

// The controllers pages share, owned by the main window. Later parts add theirs here (a load
// controller for the Load page, the run store for History and Export), so page constructors keep
// one argument.
struct WorkbenchContext {
  IndexController* index = nullptr;
  QueryController* query = nullptr;
  LoadController* load = nullptr;         // Load page runs
  HistoryController* history = nullptr;   // the run store (History, Export)
};

}  // namespace wandscope::app
