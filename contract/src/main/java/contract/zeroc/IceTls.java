package contract.zeroc;

import com.zeroc.Ice.Communicator;
import com.zeroc.Ice.Plugin;
import com.zeroc.Ice.Properties;
import contract.tls.TlsFiles;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * IceSSL, Ice's own TLS, for both sides: its plugin's properties before the communicator starts, then
 * the key and the CAs as in-memory PKCS#12 streams (IceSSL's Java API) once it has. IceSSL for Java is
 * a jar of its own that Maven Central does not serve here: Debian's {@code libzeroc-ice3.7-java} has it
 * (3.7.8, which runs on Ice 3.7.10), and the build adds it when it is installed. Its API is reached by
 * reflection, so that nothing here needs it to compile.
 */
public final class IceTls {
  private static final String FACTORY = "com.zeroc.IceSSL.PluginFactory";
  private static final String PLUGIN = "com.zeroc.IceSSL.Plugin";
  /** Where Debian's package puts it (the poms' profile adds this file). */
  public static final String DEBIAN_JAR = "/usr/share/java/icessl-3.7.8.jar";
  /** Why there is no TLS for Ice when the plugin is missing. */
  public static final String MISSING = "IceSSL is not on the class path: Maven Central serves no com.zeroc:icessl"
      + " here; install Debian's libzeroc-ice3.7-java (" + DEBIAN_JAR + ", which the build then adds) and rebuild";

  private IceTls() {}

  /** Whether IceSSL can be loaded. */
  public static boolean available() {
    try {
      Class.forName(FACTORY);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * The plugin's properties: {@code requirePeer} (a server requiring client certificates, or a client,
   * which always checks the server's), the server's name checked against the endpoint's host (clients),
   * and the JDK's own CAs when no CA is given.
   */
  public static void configure(Properties p, boolean requirePeer, boolean checkName, boolean platformCas) {
    if (!available()) {
      throw new IllegalArgumentException(MISSING);
    }
    p.setProperty("Ice.Plugin.IceSSL", FACTORY);
    p.setProperty("Ice.InitPlugins", "0"); // the streams go in before the plugin starts
    p.setProperty("IceSSL.Password", TlsFiles.STORE_PASSWORD);
    p.setProperty("IceSSL.KeystorePassword", TlsFiles.STORE_PASSWORD);
    p.setProperty("IceSSL.TruststorePassword", TlsFiles.STORE_PASSWORD);
    p.setProperty("IceSSL.KeystoreType", "PKCS12");
    p.setProperty("IceSSL.TruststoreType", "PKCS12");
    p.setProperty("IceSSL.VerifyPeer", requirePeer ? "2" : "0");
    p.setProperty("IceSSL.CheckCertName", checkName ? "1" : "0");
    if (platformCas) {
      p.setProperty("IceSSL.UsePlatformCAs", "1");
    }
  }

  /** Gives the started communicator's IceSSL {@code identity} (or none) and {@code trusted} (or none), then starts it. */
  public static void start(Communicator communicator, TlsFiles.Identity identity, List<X509Certificate> trusted) {
    Plugin plugin = communicator.getPluginManager().getPlugin("IceSSL");
    try {
      Class<?> api = Class.forName(PLUGIN); // the public interface: its implementation's class is not public
      if (identity != null) {
        api.getMethod("setKeystoreStream", InputStream.class).invoke(plugin,
            new ByteArrayInputStream(TlsFiles.bytes(identity.keyStore())));
      }
      if (trusted != null) {
        api.getMethod("setTruststoreStream", InputStream.class).invoke(plugin,
            new ByteArrayInputStream(TlsFiles.bytes(TlsFiles.trustStore(trusted))));
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("IceSSL's plugin has no key store streams: " + e, e);
    }
    communicator.getPluginManager().initializePlugins();
  }

  /** An endpoint: {@code ssl -h host -p port} over TLS, else {@code tcp ...}. */
  public static String endpoint(boolean tls, String host, int port) {
    return (tls ? "ssl" : "tcp") + " -h " + host + " -p " + port;
  }
}
