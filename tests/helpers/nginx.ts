import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'

/** Debian's nginx, if installed (`.ci/run` installs it). */
export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path))

/**
 * The start of an nginx.conf that runs unprivileged files out of `work`: one worker in the
 * foreground, its pid, log and temporary folders there, no access log. The caller adds the
 * rest of the `http` block and closes it.
 */
export function nginxConfigHead(work: string, workerConnections: number): string {
  const temp = join(work, 'nginx-temp')
  mkdirSync(temp, { recursive: true })
  return `worker_processes 1;
daemon off;
pid ${join(work, 'nginx.pid')};
error_log ${join(work, 'nginx-error.log')} warn;
${process.getuid?.() === 0 ? 'user root;' : ''}
events { worker_connections ${workerConnections}; }
http {
  access_log off;
  client_body_temp_path ${temp}/body;
  proxy_temp_path ${temp}/proxy;
  fastcgi_temp_path ${temp}/fastcgi;
  uwsgi_temp_path ${temp}/uwsgi;
  scgi_temp_path ${temp}/scgi;
`
}
