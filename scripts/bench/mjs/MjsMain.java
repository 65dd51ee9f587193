// mongo-java-server with its H2 (MVStore) backend on a loopback port, for `npm run bench:scale`.
// Args: <file> <port>. Runs until killed.
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.ServerVersion;
import de.bwaldvogel.mongo.backend.h2.H2Backend;

public class MjsMain {
    public static void main(String[] args) throws Exception {
        MongoServer server = new MongoServer(new H2Backend(args[0]).version(ServerVersion.MONGO_5_0));
        // 5.0: the default (3.6, wire version 8) is older than MongoDB driver 7 accepts.
        server.bind("127.0.0.1", Integer.parseInt(args[1]));
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown));
        Thread.currentThread().join();
    }
}
