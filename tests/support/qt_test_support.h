// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Small helpers for the Qt test executables (widgets, app, teaching); header-only, so the
// test_support library itself stays free of Qt.
#include <QAbstractItemModelTester>
#include <QString>

#include <filesystem>

namespace wandscope::test {

// Every model under test runs under QAbstractItemModelTester in Fatal mode (STYLE.md).
inline constexpr auto kFatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

inline QString qpath(const std::filesystem::path& p) { return QString::fromStdString(p.string()); }

}  // namespace wandscope::test
