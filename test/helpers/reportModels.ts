/** A four-row, two-class model for report tests that need a report, not particular numbers (any name and source). */
export function fourRowModel(name: string, source?: string) {
  return {
    name,
    ...(source === undefined ? {} : { source }),
    labels: [0, 1, 1, 0],
    scores: [
      [0.9, 0.1],
      [0.2, 0.8],
      [0.6, 0.4],
      [0.7, 0.3],
    ],
  };
}
