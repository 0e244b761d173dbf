package com.baas.signing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * {@code baas-sign}: compute or check the signature of a message, exactly as the library
 * does, for chasing a {@code 12005 Invalid signature}.
 *
 * <pre>
 * BAAS_PRIVATE_KEY=... java -jar baas-signing.jar &lt; envelope.json            # canonical string, then signature
 * BAAS_PRIVATE_KEY=... java -jar baas-signing.jar --attach &lt; envelope.json   # the body to send
 * BAAS_PRIVATE_KEY=... java -jar baas-signing.jar --verify &lt; message.json    # exit 0 when it holds
 * </pre>
 *
 * <p>Reads one JSON message on stdin; the key comes from the environment variable
 * {@code BAAS_PRIVATE_KEY} (never from the command line) and is never printed: every message
 * has its text replaced by {@value PrivateKey#REDACTED}.
 *
 * <p>A {@code null} object member is skipped, as the document says (it reads as absent), with
 * one warning line on stderr per skipped path; a {@code null} array element is refused (R2).
 *
 * <p>Exit codes: 0 signed, attached, or the signature holds; 1 {@code --verify}: the
 * signature is missing or wrong, or a re-cut rule refuses the body; 2 usage error, no key, an
 * input that is not a usable JSON object, or a body that is not to be signed (a re-cut rule,
 * a {@code null} array element included, already signed, carrying the key).
 */
public final class BaasSign {
    /** The environment variable that holds the private key. */
    public static final String KEY_VARIABLE = "BAAS_PRIVATE_KEY";

    private static final String PROG = "baas-sign";
    private static final String USAGE = "usage: " + PROG + " [-h] [--verify | --attach]";
    private static final String HELP = USAGE + "\n\n"
            + "Compute or check the signature of a BaaS message read on stdin; the key is taken\n"
            + "from the environment variable " + KEY_VARIABLE + ". By default prints the canonical\n"
            + "string (key redacted), then the signature as the last line. A null member is\n"
            + "skipped, as the document says, with a warning on stderr for each one.\n\n"
            + "options:\n"
            + "  -h, --help  show this help message and exit\n"
            + "  --verify    check the message's own `signature`: exit 0 when it holds, 1\n"
            + "              otherwise (also when a re-cut rule refuses the body)\n"
            + "  --attach    print the message with its signature added, as it is to be sent\n";

    private BaasSign() {
    }

    /**
     * Runs the command on the process's stdin, stdout, stderr and environment, then exits
     * with its exit code.
     *
     * @param args {@code --verify}, {@code --attach} or nothing
     */
    public static void main(String[] args) {
        int code = run(args, System.in, System.out, System.err, System.getenv());
        System.out.flush();
        System.err.flush();
        System.exit(code);
    }

    /**
     * Runs the command.
     *
     * @param args {@code --verify}, {@code --attach}, {@code --help} or nothing
     * @param stdin the message
     * @param stdout where results go
     * @param stderr where diagnostics go (the key redacted)
     * @param environ the environment ({@value #KEY_VARIABLE})
     * @return the exit code
     */
    public static int run(String[] args, InputStream stdin, OutputStream stdout, OutputStream stderr,
            Map<String, String> environ) {
        PrintStream out = new PrintStream(stdout, false, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(stderr, false, StandardCharsets.UTF_8);
        try {
            return run(args, stdin, out, err, environ);
        } finally {
            out.flush();
            err.flush();
        }
    }

    private static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err,
            Map<String, String> environ) {
        boolean verify = false;
        boolean attach = false;
        StringBuilder unknown = new StringBuilder();
        for (String arg : args) {
            switch (arg) {
                case "-h", "--help" -> {
                    out.print(HELP);
                    return 0;
                }
                case "--verify" -> {
                    if (attach) {
                        return usage(err, "argument --verify: not allowed with argument --attach");
                    }
                    verify = true;
                }
                case "--attach" -> {
                    if (verify) {
                        return usage(err, "argument --attach: not allowed with argument --verify");
                    }
                    attach = true;
                }
                default -> unknown.append(unknown.length() == 0 ? "" : " ").append(arg);
            }
        }
        if (unknown.length() > 0) {
            return usage(err, "unrecognized arguments: " + unknown);
        }
        String secret = environ.get(KEY_VARIABLE);
        if (secret == null || secret.isEmpty()) {
            err.println(PROG + ": set the private key in the environment variable " + KEY_VARIABLE);
            return 2;
        }
        PrivateKey key = new PrivateKey(secret);
        byte[] body;
        try {
            body = stdin.readAllBytes();
        } catch (IOException e) {
            say(err, key, "cannot read stdin: " + e.getMessage());
            return 2;
        }
        if (verify) {
            try {
                Signer.Check holding = Signer.check(body, key);
                if (holding.holds()) {
                    out.println("signature OK: " + holding.expected());
                    return 0;
                }
            } catch (CanonicalException ignored) {
                // Read again below, to say why.
            }
        }
        CanonicalException refusal = null;
        Flattened flat;
        try {
            // Both skip a null member and refuse a null array element (R2).
            flat = verify ? Canonical.parse(body) : Canonical.parseForSigning(body);
        } catch (CanonicalException e) {
            if (e.kind() != CanonicalException.Kind.AMBIGUOUS) {
                say(err, key, "the input is not a usable JSON object: " + e.getMessage());
                return 2;
            }
            refusal = e;
            try {
                flat = Canonical.parseLoose(body);
            } catch (CanonicalException again) {
                say(err, key, "the input is not a usable JSON object: " + again.getMessage());
                return 2;
            }
        }
        if (refusal == null) {
            for (String path : flat.skippedNulls()) {
                say(err, key, "warning: `" + path + "` is null: skipped (the document leaves null values out of "
                        + "the signature; the service reads the member as absent)");
            }
        }
        if (flat.hasSenderKeyPair()) {
            say(err, key, "warning: the input has a top-level `senderKey`; the key is never sent (the "
                    + "algorithm adds it), so this body does not sign like the message sent");
        }
        if (attach) {
            if (flat.hasSignatureKey()) {
                say(err, key, "the input already has a `signature`; remove it to sign again");
                return 2;
            }
            if (flat.hasSenderKeyPair() || containsKey(body, flat, key)) {
                say(err, key, "the input contains the private key; the key is never sent, remove it");
                return 2;
            }
            if (refusal != null) {
                say(err, key, "not signed: " + refusal.getMessage());
                return 2;
            }
            byte[] signed;
            try {
                signed = Signer.attachSignature(body, flat.signatureHex(key));
            } catch (CanonicalException e) {
                say(err, key, "cannot attach the signature: " + e.getMessage());
                return 2;
            }
            out.write(signed, 0, signed.length);
            out.print('\n');
            return 0;
        }
        String canonicalText = flat.canonicalStringRedacted(key);
        if (verify) {
            if (refusal != null) {
                say(err, key, "REFUSED: " + refusal.getMessage() + "\n  (every verifier refuses this "
                        + "body, whatever its signature)\n  canonical string (key redacted):\n" + canonicalText);
                return 1;
            }
            String expected = flat.signatureHex(key);
            String received = flat.signature().orElse(null);
            if (received != null && Signer.constantTimeEquals(expected, received)) {
                out.println("signature OK: " + expected);
                return 0;
            }
            String what = received == null ? "signature MISSING" : "signature MISMATCH\n  received: " + received;
            say(err, key, what + "\n  expected: " + expected + "\n  canonical string (key redacted):\n"
                    + canonicalText);
            return 1;
        }
        if (refusal != null) {
            say(err, key, "not signed: " + refusal.getMessage() + "\n  canonical string (key redacted):\n"
                    + canonicalText);
            return 2;
        }
        out.print(canonicalText + "\n" + flat.signatureHex(key) + "\n");
        return 0;
    }

    private static int usage(PrintStream err, String problem) {
        err.println(USAGE);
        err.println(PROG + ": error: " + problem);
        return 2;
    }

    /** Every diagnostic goes through here, which redacts the key. */
    private static void say(PrintStream err, PrivateKey key, String text) {
        err.println(PROG + ": " + key.redact(text));
    }

    /**
     * True when the key shows in the body: in its bytes as written, or in any key or value
     * once unescaped, or across a pair's path and value.
     */
    private static boolean containsKey(byte[] body, Flattened flat, PrivateKey key) {
        if (key.isEmpty()) {
            return false;
        }
        byte[] secret = key.expose().getBytes(StandardCharsets.UTF_8);
        outer:
        for (int i = 0; i + secret.length <= body.length; i++) {
            for (int k = 0; k < secret.length; k++) {
                if (body[i + k] != secret[k]) {
                    continue outer;
                }
            }
            return true;
        }
        for (String pair : flat.pairs()) {
            if (key.occursIn(pair)) {
                return true;
            }
        }
        return false;
    }
}
