import java.lang.reflect.Field;
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
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * Starts Amazon's DynamoDB Local as `npm start` needs it, which its command line cannot do:
 * listening on one loopback address only (it binds every interface otherwise), and answering only
 * requests signed (AWS SigV4) with the data folder's credentials (it accepts anyone otherwise).
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
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(Arrays.copyOfRange(args, 2, args.length));
    Field f = DynamoDBProxyServer.class.getDeclaredField("server");
    f.setAccessible(true);
    Server server = (Server) f.get(proxy);
    for (Connector c : server.getConnectors()) ((ServerConnector) c).setHost(host);
    server.setHandler(new SignatureGate(server.getHandler(), accessKeyId, secretAccessKey));
    proxy.start();
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
