import type { FastifyError, FastifyInstance } from 'fastify';
import { BusinessError, HttpError } from './envelope';

/** One place that turns every thrown error into the management API envelope with the right status. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof BusinessError) {
      return reply.status(200).send({ success: false, message: error.message });
    }
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ success: false, message: error.message });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: bad JSON, body too large, wrong content type.
      return reply.status(status).send({ success: false, message: error.message });
    }
    request.log.error({ err: error, requestId: request.id }, 'unhandled error');
    return reply
      .status(500)
      .send({ success: false, message: `Internal server error (request id ${request.id})` });
  });
}
