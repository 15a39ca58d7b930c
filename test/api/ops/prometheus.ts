/** One sample of a Prometheus text exposition. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the sample lines of the text format (comments skipped). */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of match[2]?.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g) ?? []) labels[key] = value!;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when none. */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}
