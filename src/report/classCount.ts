/**
 * "3 classes (setosa, versicolor, virginica)": the number of classes, with their declared names when there are any
 * (the first 12, then "…") (internal; the report's model lines and every command's header).
 */
export function classCount(numClasses: number, names?: readonly string[] | null): string {
  if (names === undefined || names === null) return `${numClasses} classes`;
  const shown = names.length <= 12 ? names.join(', ') : `${names.slice(0, 12).join(', ')}, …`;
  return `${names.length} classes (${shown})`;
}
