// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDir>
#include <QString>

namespace wandscope::app {

// A path as typed into a dialog's line edit, as the shell would read it: trimmed, "~" and "~/..."
// the home directory. Neither Qt nor the engine expands "~": "~/corpus-index" built the index in
// a directory named "~" under the working directory, and the message said "Built ~/corpus-index".
inline QString typedPath(const QString& text) {
  const QString path = text.trimmed();
  if (path == QLatin1String("~")) return QDir::homePath();
  if (path.startsWith(QLatin1String("~/"))) return QDir::home().filePath(path.mid(2));
  return path;
}

}  // namespace wandscope::app
