package com.baas.runtime.testing;

import com.baas.runtime.Config;
import com.baas.signing.PrivateKey;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A {@code baas-sandbox} program run on a free loopback port for partners' integration tests,
 * between {@link #start()} and {@link #close()} (try-with-resources):
 * <pre>{@code
 * try (SandboxProcess sandbox = SandboxProcess.builder().start()) {
 *     Client client = new Client(sandbox.config().build());
 *     var pending = client.applyForTransferPending(...);
 *     pending.sendOtp(OtpType.SMS);
 *     pending.confirm(sandbox.admin().otp(pending.businessId()));
 * }
 * }</pre>
 * The program is {@code $BAAS_SANDBOX} unless given, else {@code baas-sandbox} on the
 * {@code PATH}. Its notifications come from the sender {@value #SERVICE_SENDER}.
 */
public final class SandboxProcess implements AutoCloseable {
    /** The sender name of the sandbox's notifications. */
    public static final String SERVICE_SENDER = "baas-sandbox";

    private static final String LISTENING = "baas-sandbox listening on ";

    private final List<String> args;
    private final boolean adminOn;
    private final String adminToken;
    private final long startupMillis;
    private final Deque<String> output = new ArrayDeque<>();
    private final CountDownLatch banner = new CountDownLatch(1);
    private Process process;
    private Thread reader;
    private volatile String url = "";
    private volatile String sender = "";
    private volatile String serviceSender = SERVICE_SENDER;
    private volatile PrivateKey key;
    private SandboxAdmin admin;

    private SandboxProcess(Builder b) {
        this.args = new ArrayList<>(List.of(binary(b.binary).toString(), "--port", "0"));
        if (b.callbackUrl != null) {
            args.addAll(List.of("--callback", b.callbackUrl));
        }
        if (b.scenario != null) {
            args.addAll(List.of("--scenario", b.scenario.toString()));
        }
        if (b.stateFile != null) {
            args.addAll(List.of("--state", b.stateFile.toString()));
        }
        if (!b.admin) {
            args.add("--no-admin");
        }
        if (b.adminToken != null) {
            args.addAll(List.of("--admin-token", b.adminToken));
        }
        this.adminOn = b.admin;
        this.adminToken = b.adminToken;
        this.startupMillis = b.startupMillis;
    }

    /**
     * A builder of a sandbox run.
     *
     * @return the builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** How to run the sandbox. */
    public static final class Builder {
        private Path binary;
        private String callbackUrl;
        private Path scenario;
        private Path stateFile;
        private boolean admin = true;
        private String adminToken;
        private long startupMillis = 30_000;

        private Builder() {
        }

        /**
         * The program to run.
         *
         * @param binary its path
         * @return this builder
         */
        public Builder binary(Path binary) {
            this.binary = binary;
            return this;
        }

        /**
         * Where notifications are delivered.
         *
         * @param url your receiver's URL
         * @return this builder
         */
        public Builder callbackUrl(String url) {
            this.callbackUrl = url;
            return this;
        }

        /**
         * A YAML file of faults in force from the start.
         *
         * @param file the scenario
         * @return this builder
         */
        public Builder scenario(Path file) {
            this.scenario = file;
            return this;
        }

        /**
         * Keep the state across runs (SQLite).
         *
         * @param file the state file
         * @return this builder
         */
        public Builder stateFile(Path file) {
            this.stateFile = file;
            return this;
        }

        /**
         * Whether the admin API is on (default on).
         *
         * @param on whether it is
         * @return this builder
         */
        public Builder admin(boolean on) {
            this.admin = on;
            return this;
        }

        /**
         * Require this token for the admin page and API ({@code --admin-token});
         * {@link SandboxProcess#admin()} sends it.
         *
         * @param token printable ASCII without space, {@code ; , " \ & # % + =}
         * @return this builder
         */
        public Builder adminToken(String token) {
            this.adminToken = token;
            return this;
        }

        /**
         * Starts the sandbox.
         *
         * @return the running sandbox
         * @throws IllegalStateException when it does not start (with what it printed)
         */
        public SandboxProcess start() {
            return new SandboxProcess(this).start();
        }
    }

    private static Path binary(Path given) {
        if (given != null) {
            return given;
        }
        String env = System.getenv("BAAS_SANDBOX");
        if (env != null && !env.isEmpty()) {
            return Path.of(env);
        }
        String pathVar = System.getenv("PATH");
        for (String dir : (pathVar == null ? "" : pathVar).split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "baas-sandbox");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no baas-sandbox program: pass binary(...), set BAAS_SANDBOX, or put it on the PATH");
    }

    private synchronized SandboxProcess start() {
        ProcessBuilder pb = new ProcessBuilder(args).redirectErrorStream(true);
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + String.join(" ", args) + ": " + e, e);
        }
        Process p = process;
        reader = new Thread(() -> read(p), "baas-sandbox output");
        reader.setDaemon(true);
        reader.start();
        boolean ready;
        try {
            ready = banner.await(startupMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ready = false;
        }
        if (!ready) {
            close();
            throw new IllegalStateException("the sandbox did not start (" + String.join(" ", args) + "):\n"
                    + String.join("\n", output()));
        }
        return this;
    }

    private void read(Process p) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                synchronized (output) {
                    output.addLast(line);
                    if (output.size() > 200) {
                        output.removeFirst();
                    }
                }
                if (line.startsWith(LISTENING)) {
                    url = line.substring(LISTENING.length()).strip();
                } else if (line.startsWith("sender:")) {
                    sender = line.substring("sender:".length()).strip();
                } else if (line.startsWith("service:")) {
                    String[] words = line.substring("service:".length()).strip().split("\\s+");
                    if (!words[0].isEmpty()) {
                        serviceSender = words[0];
                    }
                } else if (line.startsWith("key:")) {
                    String[] words = line.substring("key:".length()).strip().split("\\s+");
                    if (words.length > 0 && !words[0].isEmpty()) {
                        key = new PrivateKey(words[0]);
                    }
                }
                if (!url.isEmpty() && !sender.isEmpty() && key != null) {
                    banner.countDown();
                }
            }
        } catch (IOException e) {
            // The program ended; what it printed is kept.
        }
    }

    /** @return the sandbox's base URL, e.g. {@code http://127.0.0.1:41234} */
    public String url() {
        return url;
    }

    /** @return the partner sender name the sandbox expects */
    public String sender() {
        return sender;
    }

    /**
     * The sender name of the sandbox's answers and notifications, as its banner's {@code service:}
     * line says ({@value #SERVICE_SENDER}): what a {@code NotificationVerifier} is given.
     *
     * @return the service's sender name
     */
    public String serviceSender() {
        return serviceSender;
    }

    /** @return the (test) key the sandbox signs and verifies with */
    public PrivateKey privateKey() {
        return key;
    }

    /**
     * A client configuration for this sandbox (its URL, sender and key), to change or build.
     *
     * @return the builder
     */
    public Config.Builder config() {
        return Config.builder(url, sender, key);
    }

    /**
     * Its admin API.
     *
     * @return the admin API
     * @throws IllegalStateException when the sandbox runs without it
     */
    public synchronized SandboxAdmin admin() {
        if (!adminOn) {
            throw new IllegalStateException("the sandbox runs without its admin API (admin(false))");
        }
        if (admin == null) {
            admin = new SandboxAdmin(url, adminToken);
        }
        return admin;
    }

    /** @return the last lines the program printed */
    public List<String> output() {
        synchronized (output) {
            return List.copyOf(output);
        }
    }

    /** Stops the program (SIGTERM, then SIGKILL after 10 s). Safe to call twice. */
    @Override
    public synchronized void close() {
        Process p = process;
        process = null;
        if (p == null) {
            return;
        }
        p.destroy();
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            if (reader != null) {
                reader.join(10_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
        }
    }

    @Override
    public String toString() {
        return "SandboxProcess[" + url + ", sender=" + sender + "]";
    }
}
