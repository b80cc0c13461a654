// Fastify compiles a serializer (fast-json-stringify) for every response schema of every route when
// the app starts: about 450 ms of CPU and the memory of several hundred generated functions, though
// a process answers most of its traffic from a few routes and some routes never. Here each
// serializer is compiled on its route's first answer with that status instead, and kept: the same
// code, the same output, only later. The schemas are the app's own constants, so a schema that does
// not compile is a bug the route's tests meet, as they would at start.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/** Fastify's `schemaController.compilersFactory.buildSerializer`, compiling each serializer on first use. */
export function lazySerializerFactory(): SerializerFactory {
  const eager = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = eager(externalSchemas, options);
    return (route) => {
      let serialize: ((document: unknown) => string) | undefined;
      return (document) => (serialize ??= compile(route))(document);
    };
  };
}
