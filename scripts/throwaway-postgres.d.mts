export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:<port>/postgres, as the superuser, without password. */
  url: string;
  port: number;
  /** URL of a new empty database with a name of its own. */
  createDatabase(): Promise<string>;
  dropDatabase(url: string): Promise<void>;
  /** Fast shutdown (open connections are cut), then the cluster's directory is removed. */
  stop(): Promise<void>;
}

/** A new empty database on the server of `adminUrl`, copied from template0 so nothing created in another leaks in. */
export function createDatabase(adminUrl: string): Promise<string>;

/** A server on a new cluster in a temporary directory, on a free loopback port; removed on stop or when the process exits. */
export function startPostgres(): Promise<PostgresServer>;
