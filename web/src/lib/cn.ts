/**
 * Joins class names, skipping the false ones. It does not merge Tailwind classes: of two that set
 * the same property (`py-16` and `py-10`), the one later in the built CSS wins, whatever their
 * order here. So a component takes `className` only for where it sits (margins, width, grid
 * placement), and offers a variant prop for what callers may change about the component itself
 * (its size, its padding, its selected state). tailwind-merge would do this at run time, but its
 * bytes do not fit the landing page's first-load budget.
 */
export function cn(...classes: (string | false | null | undefined)[]): string {
  return classes.filter(Boolean).join(' ');
}
