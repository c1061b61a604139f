// SPDX-License-Identifier: GPL-3.0-or-later
// GoogleTest main for the Trace view tests: a QApplication on the offscreen platform unless the
// environment chose another (screenshots run under Xvfb with xcb).
#include <gtest/gtest.h>

#include <QApplication>

#include <cstdlib>

int main(int argc, char** argv) {
  if (std::getenv("QT_QPA_PLATFORM") == nullptr) ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
  ::testing::InitGoogleTest(&argc, argv);
  QApplication app(argc, argv);
  return RUN_ALL_TESTS();
}
