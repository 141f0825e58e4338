#!/usr/bin/env bash
# Homes per rule (a rough grep beside test/architecture.test.ts, which holds the rules): library files (src/ less testing/, cli/, ai/) that hold each rule's logic, by a grep of its tell-tale code.
cd "${1:-.}"
lib=$(git ls-files 'src/*.ts' 'src/**/*.ts' | grep -vE '^src/(testing|cli|ai)/')
count() { local n; n=$(echo "$lib" | xargs grep -lE "$2" 2>/dev/null | tr '\n' ' '); printf '%-34s %2d  %s\n' "$1" "$(echo $n | wc -w)" "$n"; }
count "time (setTimeout)" '\bsetTimeout\('
count "redaction (replace key/Bearer)" 'redact[A-Z(]|\[redacted\]|REDACTED'
count "retry decision" 'isRetryable|retryable\(|shouldRetry|RETRYABLE'
count "status to class (429/3xx)" 'status === 429|status >= 300 && |status < 400|RateLimitError\(|RedirectError\('
count "module-level client maps" '^(export )?(const|let) [A-Za-z_]+[^=]*= new WeakMap<'
count "lazy loading (import())" 'import\("\.'
count "official shapes (success flag/aliases)" 'withSuccess|listWithAlias|SuccessFlag|agentArgs|historicalOptions|flattenBatchOptions'
