// The JSON documents rdmasim writes, described key by key: the one source of docs/json.md
// (`rdmasim list --json-format`) and of the test that runs each document's example and checks
// its top-level keys against this table (tests/json_schema_test.py).
//
// Invariants (checked by the test): every document's first key is schema_version; an always-key
// is in every example's output; no example writes a top-level key the table does not list; and
// every listed key appears in some example's output.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rdmasim {

struct JsonKeyDoc {
  std::string_view key;
  std::string_view meaning;
  std::string_view when;  // empty: always present; else the condition it appears under
};

struct JsonDocumentDoc {
  std::string_view document;               // how it is asked for: "lat --json"
  std::vector<std::string_view> examples;  // rdmasim arguments that write it; together they show every key
  std::string_view output;                 // "" (standard output) or the file the examples write
  std::vector<JsonKeyDoc> keys;
};

/// Every document, in the order docs/json.md lists them.
const std::vector<JsonDocumentDoc>& json_documents();

/// docs/json.md.
std::string json_format_markdown();

/// The table as JSON, for the test: [{"document", "examples", "output", "keys": [{"key", "always"}]}].
std::string json_documents_json();

}  // namespace rdmasim
