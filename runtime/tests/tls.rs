//! The default transport speaks TLS through rustls and checks the server's certificate
//! against the webpki roots (issue 36 moved it from reqwest onto hyper-util directly):
//! a server whose certificate no public authority signed is refused during the
//! handshake, so nothing was sent, and the error says why.
//!
//! `support/self_signed_cert.der` and `support/self_signed_key.der` are a throwaway
//! self-signed certificate for `localhost` and `127.0.0.1` and its P-256 key, made for
//! this test (`openssl req -x509 -newkey ec ...`): they protect nothing.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use baas_runtime::{ErrorKind, HttpRequest, HttpsTransport, Transport};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio::io::AsyncReadExt;
use tokio::net::TcpListener;

/// A TLS server with the self-signed certificate: counts the handshakes that
/// completed and the bytes of HTTP read after them.
async fn tls_server() -> (u16, Arc<AtomicUsize>, Arc<AtomicUsize>) {
    let cert = CertificateDer::from(include_bytes!("support/self_signed_cert.der").to_vec());
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(
        include_bytes!("support/self_signed_key.der").to_vec(),
    ));
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(vec![cert], key)
    .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (handshakes, read) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let (h, r) = (handshakes.clone(), read.clone());
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (acceptor, h, r) = (acceptor.clone(), h.clone(), r.clone());
            tokio::spawn(async move {
                if let Ok(mut tls) = acceptor.accept(stream).await {
                    h.fetch_add(1, Ordering::SeqCst);
                    let mut buf = [0u8; 4096];
                    if let Ok(n) = tls.read(&mut buf).await {
                        r.fetch_add(n, Ordering::SeqCst);
                    }
                }
            });
        }
    });
    (port, handshakes, read)
}

#[tokio::test]
async fn a_certificate_no_authority_signed_is_refused_before_anything_is_sent() {
    let (port, handshakes, read) = tls_server().await;
    let transport = HttpsTransport::new(Duration::from_secs(5)).unwrap();
    for host in ["localhost", "127.0.0.1"] {
        let request = HttpRequest::new(
            format!("https://{host}:{port}/query/getAccountDetails"),
            b"{\"accountId\":\"1\"}".to_vec(),
            Duration::from_secs(5),
            1024,
        );
        let err = transport.post_json(request).await.unwrap_err();
        let ErrorKind::Transport {
            message,
            may_have_reached_service,
            ..
        } = err.kind()
        else {
            panic!("{err:?}");
        };
        assert!(!may_have_reached_service, "{err:?}");
        assert!(
            message.contains("certificate") || message.contains("UnknownIssuer"),
            "{message}"
        );
    }
    assert_eq!(handshakes.load(Ordering::SeqCst), 0);
    assert_eq!(read.load(Ordering::SeqCst), 0);
}
