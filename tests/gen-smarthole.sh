#!/bin/sh
# tests/gen-smarthole.sh N [SEED]: a SmartHole PersistedHistory of N entries on
# stdout, the same for the same seed. Entries are a minute or two apart, with
# an hour's gap after every 50th, so --split has stretches to find.
awk -v n="${1:?usage: gen-smarthole.sh N [SEED]}" -v seed="${2:-42}" 'BEGIN {
	srand(seed)
	split("read_file edit_file search_files create_file run_command", tools, " ")
	split("Add oat milk to the list|Résumé the meeting notes|Find the 2025 tax receipts|Plan a trip to Kyōto 🚆|Rename the draft to Final", asks, "|")
	t = 1767225600	# 2026-01-01T00:00:00Z
	printf "{\"recentConversations\": [\n"
	for (i = 0; i < n; i++) {
		t += 60 + int(rand() * 60)
		if (i > 0 && i % 50 == 0)
			t += 3600
		a = asks[1 + int(rand() * 5)]
		k = 1 + int(rand() * 5)
		printf "%s{\"id\": \"%.0f-%04d\", \"timestamp\": \"%s\", ", i ? ",\n" : "", t * 1000, i, strftime("%Y-%m-%dT%H:%M:%S.000Z", t, 1)
		printf "\"userMessage\": \"%s (#%d)\", \"assistantResponse\": \"Done: %s — entry %d of %d.\", ", a, i, a, i, n
		printf "\"toolsUsed\": [\"%s\"]}", tools[k]
	}
	printf "\n], \"summaries\": [{\"startDate\": \"2025-12-01T00:00:00.000Z\", \"endDate\": \"2025-12-31T23:59:59.000Z\", \"summary\": \"December: year-end planning.\", \"conversationCount\": 40}], \"lastSummarized\": \"2025-12-31T23:59:59.000Z\"}\n"
}'
