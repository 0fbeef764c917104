import com.almworks.sqlite4java.SQLiteJob;
import com.almworks.sqlite4java.SQLiteQueue;
import java.io.File;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.AbstractLocalDynamoDBServerHandler;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;
import software.amazon.dynamodb.services.local.server.LocalDynamoDBRequestHandler;
import software.amazon.dynamodb.services.local.shared.access.sqlite.SQLiteDBAccess;

/**
 * Starts Amazon's DynamoDB Local as `npm start` needs it, which its command line cannot do:
 * listening on one loopback address only (it binds every interface otherwise), answering only
 * requests signed (AWS SigV4) with the data folder's credentials (it accepts anyone otherwise), and,
 * with -dbPath, answering a write only once SQLite has committed it (see {@link DurableQueue}).
 *
 * Usage (source-file mode, no build step):
 *   java -cp DynamoDBLocal.jar:DynamoDBLocal_lib/* LoopbackDynamo.java HOST CREDENTIALS_FILE [DynamoDB Local options]
 * CREDENTIALS_FILE is JSON with accessKeyId and secretAccessKey (mode 0600, never on the command line).
 */
public class LoopbackDynamo {
  public static void main(String[] args) throws Exception {
    if (args.length < 2) throw new IllegalArgumentException("usage: LoopbackDynamo HOST CREDENTIALS_FILE [options]");
    String host = args[0];
    String json = Files.readString(Path.of(args[1]));
    String accessKeyId = field(json, "accessKeyId");
    String secretAccessKey = field(json, "secretAccessKey");
    List<String> options = Arrays.asList(Arrays.copyOfRange(args, 2, args.length));
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(options.toArray(new String[0]));
    if (options.contains("-dbPath")) DurableQueue.install(proxy, options.contains("-sharedDb"));
    Field f = DynamoDBProxyServer.class.getDeclaredField("server");
    f.setAccessible(true);
    Server server = (Server) f.get(proxy);
    for (Connector c : server.getConnectors()) ((ServerConnector) c).setHost(host);
    server.setHandler(new SignatureGate(server.getHandler(), accessKeyId, secretAccessKey));
    try {
      proxy.start();
    } catch (Throwable e) {
      // The database queue's thread would keep a process that serves nothing alive (the port taken, say).
      e.printStackTrace();
      Runtime.getRuntime().halt(1);
    }
  }

  /**
   * DynamoDB Local runs every SQLite statement as a job on one sqlite4java queue (one thread, one
   * connection) and waits for each job, except one: TransactWriteItems queues its COMMIT and answers
   * at once (SQLiteDBAccess.commitTransaction calls execute without get). A transaction is therefore
   * acknowledged before SQLite has committed it, and a process killed in that window (the COMMIT and
   * its fsyncs, milliseconds) comes back without it: SQLite rolls the hot journal back on restart.
   * This queue makes execute return only when the job has run, so a transaction is answered after
   * its COMMIT; every other caller waited already, so nothing else changes. A COMMIT that fails
   * ends the process before the answer is sent (the supervisor starts it again and SQLite rolls the
   * transaction back): the client sees an error, never an acknowledgment of a write it will not find.
   */
  static final class DurableQueue extends SQLiteQueue {
    DurableQueue(File database) {
      super(database);
    }

    /** Swaps the queue of the persistent database for a DurableQueue on the same file, before any request. */
    static void install(DynamoDBProxyServer proxy, boolean sharedDb) throws Exception {
      if (!sharedDb) throw new IllegalArgumentException("the durable queue is installed for -sharedDb only (one database file)");
      Object serverHandler = read(DynamoDBProxyServer.class, proxy, "serverHandler");
      Object requestHandler = read(AbstractLocalDynamoDBServerHandler.class, serverHandler, "primaryHandler");
      // The database is opened on the first request; with -sharedDb the name given here is ignored.
      Method getHandler = LocalDynamoDBRequestHandler.class.getDeclaredMethod("getHandler", String.class);
      getHandler.setAccessible(true);
      Object client = getHandler.invoke(requestHandler, "shared");
      Object access = read(client.getClass(), client, "dbAccess");
      if (!(access instanceof SQLiteDBAccess)) throw new IllegalStateException("DynamoDB Local does not keep this database in SQLite");
      Field queueField = SQLiteDBAccess.class.getDeclaredField("queue");
      queueField.setAccessible(true);
      SQLiteQueue old = (SQLiteQueue) queueField.get(access);
      File database = old.getDatabaseFile();
      if (database == null) throw new IllegalStateException("DynamoDB Local keeps this database in memory");
      old.stop(true).join();
      queueField.set(access, new DurableQueue(database).start());
    }

    private static Object read(Class<?> type, Object target, String name) throws Exception {
      Field f = type.getDeclaredField(name);
      f.setAccessible(true);
      return f.get(target);
    }

    @Override
    public <T, J extends SQLiteJob<T>> J execute(J job) {
      J queued = super.execute(job);
      if (isDatabaseThread()) return queued;
      try {
        queued.get();
      } catch (ExecutionException | CancellationException e) {
        // The caller reads the job's outcome itself; only a failed COMMIT is the caller's blind spot.
        if (calledFromCommit()) {
          System.err.println("LoopbackDynamo: a transaction's COMMIT failed; stopping before it is acknowledged");
          Runtime.getRuntime().halt(70);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return queued;
    }

    private static boolean calledFromCommit() {
      return StackWalker.getInstance()
          .walk(frames -> frames.skip(1).limit(3).anyMatch(f -> f.getMethodName().equals("commitTransaction")));
    }
  }

  private static String field(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([A-Za-z0-9_\\-]+)\"").matcher(json);
    if (!m.find()) throw new IllegalArgumentException("credentials file lacks " + name);
    return m.group(1);
  }

  /** Checks each request's SigV4 header signature (body included) and time before DynamoDB Local sees it. */
  static final class SignatureGate extends Handler.Wrapper {
    private static final Pattern AUTH = Pattern.compile(
        "^AWS4-HMAC-SHA256 Credential=([^/,\\s]+)/(\\d{8})/([^/,\\s]+)/dynamodb/aws4_request,\\s*SignedHeaders=([a-z0-9;\\-]+),\\s*Signature=([0-9a-f]{64})$");
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");
    private static final long SKEW_SECONDS = 300;
    private final String accessKeyId;
    private final byte[] secret;

    SignatureGate(Handler inner, String accessKeyId, String secretAccessKey) {
      super(inner);
      this.accessKeyId = accessKeyId;
      this.secret = ("AWS4" + secretAccessKey).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      HttpFields h = request.getHeaders();
      String auth = h.get("Authorization");
      String date = h.get("X-Amz-Date");
      Matcher m = auth == null ? null : AUTH.matcher(auth);
      if (m == null || !m.matches() || date == null) return deny(response, callback, "MissingAuthenticationTokenException", "Request is missing Authentication Token");
      if (!MessageDigest.isEqual(m.group(1).getBytes(StandardCharsets.UTF_8), accessKeyId.getBytes(StandardCharsets.UTF_8))) {
        return deny(response, callback, "UnrecognizedClientException", "The security token included in the request is invalid.");
      }
      Instant signed;
      try {
        signed = LocalDateTime.parse(date, AMZ_DATE).toInstant(ZoneOffset.UTC);
      } catch (RuntimeException e) {
        return deny(response, callback, "InvalidSignatureException", "Malformed X-Amz-Date");
      }
      if (Math.abs(Instant.now().getEpochSecond() - signed.getEpochSecond()) > SKEW_SECONDS || !date.startsWith(m.group(2))) {
        return deny(response, callback, "InvalidSignatureException", "Signature expired or not yet valid");
      }
      String path = request.getHttpURI().getPath();
      String query = request.getHttpURI().getQuery();
      if (!"/".equals(path) || (query != null && !query.isEmpty())) return deny(response, callback, "InvalidSignatureException", "Unexpected path");

      ByteBuffer buffer = Content.Source.asByteBuffer(request);
      byte[] body = new byte[buffer.remaining()];
      buffer.get(body);

      StringBuilder canonical = new StringBuilder();
      canonical.append(request.getMethod()).append('\n').append("/\n\n");
      String signedHeaders = m.group(4);
      for (String name : signedHeaders.split(";")) {
        java.util.List<String> values = h.getValuesList(name);
        if (values.isEmpty()) return deny(response, callback, "InvalidSignatureException", "A signed header is missing");
        canonical.append(name).append(':').append(String.join(",", values).trim().replaceAll(" +", " ")).append('\n');
      }
      canonical.append('\n').append(signedHeaders).append('\n').append(hex(sha256(body)));
      String scope = m.group(2) + "/" + m.group(3) + "/dynamodb/aws4_request";
      String toSign = "AWS4-HMAC-SHA256\n" + date + "\n" + scope + "\n" + hex(sha256(canonical.toString().getBytes(StandardCharsets.UTF_8)));
      byte[] key = hmac(hmac(hmac(hmac(secret, m.group(2)), m.group(3)), "dynamodb"), "aws4_request");
      byte[] expected = hex(hmac(key, toSign)).getBytes(StandardCharsets.UTF_8);
      if (!MessageDigest.isEqual(expected, m.group(5).getBytes(StandardCharsets.UTF_8))) {
        return deny(response, callback, "InvalidSignatureException", "The request signature we calculated does not match the signature you provided.");
      }
      // The body was read to check it; DynamoDB Local reads this copy.
      Request replay = new Request.Wrapper(request) {
        private boolean sent;

        @Override
        public Content.Chunk read() {
          if (sent) return Content.Chunk.EOF;
          sent = true;
          return Content.Chunk.from(ByteBuffer.wrap(body), true);
        }

        @Override
        public void demand(Runnable demandCallback) {
          demandCallback.run();
        }
      };
      return super.handle(replay, response, callback);
    }

    private static boolean deny(Response response, Callback callback, String type, String message) {
      response.setStatus(400);
      response.getHeaders().put("Content-Type", "application/x-amz-json-1.0");
      String body = "{\"__type\":\"com.amazonaws.dynamodb.v20120810#" + type + "\",\"message\":\"" + message + "\"}";
      response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
      return true;
    }

    private static byte[] sha256(byte[] data) throws Exception {
      return MessageDigest.getInstance("SHA-256").digest(data);
    }

    private static byte[] hmac(byte[] key, String data) throws Exception {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    }

    private static String hex(byte[] bytes) {
      StringBuilder sb = new StringBuilder(bytes.length * 2);
      for (byte b : bytes) sb.append(String.format("%02x", b));
      return sb.toString();
    }
  }
}
