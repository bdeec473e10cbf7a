// A line diff that writes manifest patches in the published format (docs: issue 42's spec, manifest-patch.js), for
// the pack library's tests until `citypack build` writes them: edits are runs of copied base lines (a number) and
// replacements ([lines skipped, text appended]), from a longest common subsequence of the two files' lines.

/** The lines of a text, each with its trailing "\n" (the last may have none). */
export function lines(text) {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * The edits that turn `base` lines into `result` lines: common prefix and suffix copied, the middle diffed by a
 * longest common subsequence (quadratic in the middle's lines: fine for manifests whose changes are local).
 * @param {string[]} base @param {string[]} result @returns {(number|[number, string])[]}
 */
export function lineEdits(base, result) {
  let head = 0;
  while (head < base.length && head < result.length && base[head] === result[head]) head++;
  let tail = 0;
  while (tail < base.length - head && tail < result.length - head && base[base.length - 1 - tail] === result[result.length - 1 - tail]) tail++;
  const a = base.slice(head, base.length - tail);
  const b = result.slice(head, result.length - tail);
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const edits = [];
  const copy = (n) => {
    if (n === 0) return;
    if (typeof edits.at(-1) === 'number') edits[edits.length - 1] += n;
    else edits.push(n);
  };
  const replace = (skip, text) => {
    const last = edits.at(-1);
    if (Array.isArray(last)) {
      last[0] += skip;
      last[1] += text;
    } else {
      edits.push([skip, text]);
    }
  };
  copy(head);
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      copy(1);
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lcs[i][j + 1] >= lcs[i + 1][j])) {
      replace(0, b[j++]);
    } else {
      replace(1, '');
      i++;
    }
  }
  copy(tail);
  return edits;
}

/**
 * The manifest patch from one manifest file's bytes to another's, in the published format (as `citypack build`
 * writes it: sizes only, no hashes; the catalog's manifestSha256 binds the result).
 * @param {Uint8Array} baseBytes @param {Uint8Array} resultBytes @param {{city: string, from: number, to: number}} ids
 */
export function manifestPatch(baseBytes, resultBytes, { city, from, to }) {
  const decode = (b) => new TextDecoder('utf-8', { fatal: true }).decode(b);
  return {
    format: 1,
    city,
    from,
    to,
    base: { bytes: baseBytes.length },
    result: { bytes: resultBytes.length },
    edits: lineEdits(lines(decode(baseBytes)), lines(decode(resultBytes))),
  };
}
