#!/usr/bin/env python3
"""gen-mixed.py N SEED OUT - a convctl store of N conversations whose text is
not bench/gen.py's: many short messages (chat replies of a few words) among
longer ones, prose in several languages (English, German, French, Spanish,
Russian, Greek, Chinese, Japanese, Korean, Arabic), and code (C, Python,
shell, JSON, diffs) with the escapes code brings into JSON: quotes,
backslashes, tabs, newlines on almost every line. Most conversations talk
about C, so `malloc` is found in most of them. Laid out as convctl writes it,
one conversation a line; some conversations are tagged. Prints, as gen.py
does, the id of the conversation in the middle and the last message's time.
"""

from sources import arguments
from storefile import ts, write_store

SHORT = ["ok", "thanks!", "yes", "no", "sure", "done", "👍", "got it", "why?",
         "hmm", "lgtm", "merci", "danke", "да", "好的", "はい", "ok 🙂",
         "try again", "still failing", "that works", "wait", "go on"]
PROSE = {
    "en": "the buffer is freed twice when the parser fails so we should keep "
          "one owner and one cleanup path for every allocation in the loop",
    "de": "der Puffer wird zweimal freigegeben wenn der Parser scheitert also "
          "brauchen wir genau einen Besitzer für jede Größe und Straße",
    "fr": "le tampon est libéré deux fois quand l'analyse échoue il faut un "
          "seul propriétaire et une seule sortie pour chaque allocation à côté",
    "es": "el búfer se libera dos veces cuando falla el análisis así que cada "
          "reserva necesita un único dueño señor niño acción",
    "ru": "буфер освобождается дважды когда разбор не удался поэтому у каждого "
          "выделения памяти должен быть один владелец и один выход",
    "el": "ο buffer ελευθερώνεται δύο φορές όταν αποτυγχάνει η ανάλυση άρα "
          "κάθε δέσμευση μνήμης χρειάζεται έναν ιδιοκτήτη",
    "zh": "解析失败时缓冲区被释放了两次 所以每次分配内存都应该只有一个所有者和一条清理路径",
    "ja": "解析に失敗するとバッファが二回解放されるので 確保したメモリには所有者をひとつだけ決めてください",
    "ko": "파서가 실패하면 버퍼가 두 번 해제되므로 모든 할당에는 하나의 소유자가 필요합니다",
    "ar": "يتم تحرير المخزن المؤقت مرتين عندما يفشل المحلل لذلك يجب أن يكون لكل تخصيص مالك واحد",
}
C_LINES = [
    "char *buf = malloc(len + 1);",
    "if (buf == NULL)\n\treturn -1;",
    "memcpy(buf, src, len);\nbuf[len] = '\\0';",
    "struct node *n = calloc(1, sizeof(*n));",
    "p = realloc(p, cap * sizeof(*p));  /* grows by 2x */",
    "free(buf);\nbuf = NULL;",
    "fprintf(stderr, \"error: %s\\n\", strerror(errno));",
    "for (size_t i = 0; i < n; i++)\n\tsum += v[i];",
    "goto out;\nout:\n\tfree(tmp);\n\treturn rc;",
    "#include <stdlib.h>\n#include <string.h>",
    "printf(\"%d\\t%s\\n\", id, name);",
]
PY_LINES = [
    "def load(path):\n    with open(path) as f:\n        return json.load(f)",
    "data = [x * 2 for x in range(10)]",
    "raise ValueError(f\"bad value: {v!r}\")",
    "print('tab\\there', end='')",
    "re.compile(r'\\d+\\s*(\\w+)')",
]
SH_LINES = [
    "grep -rn 'TODO' src/ | wc -l",
    "for f in *.log; do gzip \"$f\"; done",
    "export PATH=\"$HOME/bin:$PATH\"",
    "valgrind --leak-check=full ./a.out 2>&1 | tail",
    "C:\\Program Files\\tool\\bin\\run.exe --flag",
]
DIFF = "--- a/x.c\n+++ b/x.c\n@@ -1,3 +1,3 @@\n-\tp = malloc(n);\n+\tp = xmalloc(n);\n \treturn p;"
JSON_LINES = ['{"id": 1, "name": "café", "tags": ["a", "b"]}',
              '{"path": "C:\\\\temp\\\\x", "ok": true}']
TOOLS = ["read_file", "edit_file", "run_shell", "search", "compile"]
TAGS = ["work", "home", "c", "review", "later"]


def code(rng, c_heavy):
    kind = rng.random()
    if c_heavy and kind < 0.6:
        lines = rng.sample(C_LINES, rng.randint(2, 6))
        fence = "c"
    elif kind < 0.75:
        lines = rng.sample(PY_LINES, rng.randint(1, 4))
        fence = "python"
    elif kind < 0.9:
        lines = rng.sample(SH_LINES, rng.randint(1, 3))
        fence = "sh"
    elif kind < 0.95:
        lines = [DIFF]
        fence = "diff"
    else:
        lines = JSON_LINES
        fence = "json"
    return "```%s\n%s\n```" % (fence, "\n".join(lines))


def prose(rng):
    lang = rng.choice(list(PROSE))
    words = PROSE[lang].split()
    if len(words) < 8:	# CJK: no spaces between words, cut anywhere
        s = PROSE[lang]
        k = rng.randint(6, len(s))
        start = rng.randint(0, len(s) - k)
        return s[start:start + k]
    k = rng.randint(4, len(words))
    start = rng.randint(0, len(words) - k)
    return " ".join(words[start:start + k])


def text(rng, c_heavy):
    r = rng.random()
    if r < 0.45:
        return rng.choice(SHORT)
    parts = []
    for _ in range(rng.randint(1, 4)):
        parts.append(code(rng, c_heavy) if rng.random() < 0.4 else prose(rng))
    return "\n\n".join(parts)


def main():
    n, rng, out = arguments(int)
    t = 1735689600000  # 2025-01-01T00:00:00.000Z
    convs = []
    for i in range(n):
        t += rng.randint(600, 43200) * 1000
        start = t
        c_heavy = rng.random() < 0.8
        msgs = []
        for k in range(rng.randint(20, 60)):
            t += rng.randint(1000, 60000)
            role = "user" if k % 2 == 0 else "assistant"
            if k == 0 and rng.random() < 0.2:
                role = "system"
            m = {"id": "m-%d-%08x" % (t, rng.getrandbits(32)), "timestamp": ts(t),
                 "role": role, "content": text(rng, c_heavy)}
            if role == "assistant" and rng.random() < 0.25:
                m["toolsUsed"] = rng.sample(TOOLS, rng.randint(1, 2))
            msgs.append(m)
        active = i == n - 1
        c = {"id": "conv-%d" % start, "startedAt": ts(start),
             "endedAt": None if active else ts(t + 1000),
             "title": prose(rng)[:60] if not active and rng.random() < 0.5 else None,
             "summary": None,
             "messages": msgs}
        if rng.random() < 0.3:
            c["tags"] = rng.sample(TAGS, rng.randint(1, 2))
        convs.append(c)
    write_store(out, convs)


if __name__ == "__main__":
    main()
