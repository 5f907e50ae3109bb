// Which endpoint a request names: one table built once from the endpoint declarations, looked up by the
// path's number of segments and its first segment, instead of Express testing every route's regular
// expression in turn (bench/README.md, bench/answer-loop). Pure: no Express, no I/O.
//
// It answers exactly as Express 5's router did with one route per endpoint, in declaration order:
// - paths match case-insensitively (ASCII letters only, as the router's `i` flag does), with at most
//   one trailing slash;
// - a `:param` segment is one or more characters other than `/`, handed over percent-decoded;
// - the first declared route that matches the path and handles the method wins; HEAD is handled by a
//   GET route, and a route of another method that the path matches is passed over;
// - an OPTIONS request no route handles is answered with the methods of every route the path matches.

type Segment = { literal: string } | { param: string };

export interface Route<T> {
  /** GET, POST, …, upper-case. */
  method: string;
  /** The declared path, e.g. `/tasks/:id`. */
  path: string;
  value: T;
  segments: readonly Segment[];
}

export interface RouteTable<T> {
  /** The routes a path of this shape may match, in declaration order (see `candidates`). */
  readonly buckets: ReadonlyMap<string, readonly Route<T>[]>;
}

const bucketKey = (count: number, first: string) => `${count}/${first}`;

function parsePath(path: string): Segment[] {
  if (!path.startsWith('/') || path.length < 2) throw new Error(`route ${path}: a path starts with / and names something`);
  return path
    .slice(1)
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) {
        if (!/^:[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) throw new Error(`route ${path}: parameter ${segment} is not a plain name`);
        return { param: segment.slice(1) };
      }
      if (!/^[a-z0-9._~-]+$/.test(segment)) throw new Error(`route ${path}: segment "${segment}" is not a plain lower-case word`);
      return { literal: segment };
    });
}

export function buildRouteTable<T>(routes: readonly { method: string; path: string; value: T }[]): RouteTable<T> {
  const buckets = new Map<string, Route<T>[]>();
  for (const { method, path, value } of routes) {
    const segments = parsePath(path);
    const first = segments[0] as Segment;
    if (!('literal' in first)) throw new Error(`route ${path}: the first segment is a literal`);
    const key = bucketKey(segments.length, first.literal);
    const bucket = buckets.get(key) ?? [];
    bucket.push({ method: method.toUpperCase(), path, value, segments });
    buckets.set(key, bucket);
  }
  return { buckets };
}

/** The path's segments as the routes see them (a trailing slash dropped), or undefined when none can match. */
export function splitPath(pathname: string): string[] | undefined {
  if (pathname.length < 2 || pathname.charCodeAt(0) !== 47 /* / */) return undefined;
  const end = pathname.charCodeAt(pathname.length - 1) === 47 ? pathname.length - 1 : pathname.length;
  return pathname.slice(1, end).split('/');
}

/**
 * Whether a path segment is a route's literal one, ignoring the case of ASCII letters only — as the
 * router's case-insensitive regular expression (flag `i` without `u`) compares them: no other character
 * (`K`, the Kelvin sign, say) equals an ASCII letter there.
 */
function sameLiteral(given: string, literal: string): boolean {
  if (given.length !== literal.length) return false;
  if (given === literal) return true;
  for (let i = 0; i < given.length; i++) {
    let code = given.charCodeAt(i);
    if (code >= 65 && code <= 90) code += 32;
    if (code !== literal.charCodeAt(i)) return false;
  }
  return true;
}

const NON_ASCII = /[^\p{ASCII}]/u;

/** The routes whose shape (segment count, first segment) fits, in declaration order. */
export function candidates<T>(table: RouteTable<T>, segments: readonly string[]): readonly Route<T>[] {
  const first = segments[0] as string;
  // Literal segments are ASCII: a segment with any other character is none of them (and lower-casing it
  // could turn one into an ASCII letter).
  if (NON_ASCII.test(first)) return [];
  return table.buckets.get(bucketKey(segments.length, first.toLowerCase())) ?? [];
}

/** The raw (still percent-encoded) parameters when the route's segments match, else undefined. */
export function matchSegments(route: Route<unknown>, segments: readonly string[]): Record<string, string> | undefined {
  let params: Record<string, string> | undefined;
  for (let i = 1; i < segments.length; i++) {
    const expected = route.segments[i] as Segment;
    const given = segments[i] as string;
    if ('literal' in expected) {
      if (!sameLiteral(given, expected.literal)) return undefined;
    } else {
      if (given.length === 0) return undefined;
      (params ??= Object.create(null) as Record<string, string>)[expected.param] = given;
    }
  }
  return params ?? (Object.create(null) as Record<string, string>);
}

/** Whether a route of `routeMethod` handles a request of `method` (Express: HEAD falls back to GET). */
export const handles = (routeMethod: string, method: string) => routeMethod === method || (method === 'HEAD' && routeMethod === 'GET');

/**
 * The methods an OPTIONS response lists for these segments (every matching route's, with HEAD where
 * there is GET), sorted, or an empty list when no route matches the path.
 */
export function allowedMethods(table: RouteTable<unknown>, segments: readonly string[]): string[] {
  const methods = new Set<string>();
  for (const route of candidates(table, segments)) {
    if (!matchSegments(route, segments)) continue;
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
  }
  return [...methods].sort();
}
