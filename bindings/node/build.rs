//! Node-API link setup (on Linux the module's Node-API symbols resolve at load time).

fn main() {
    napi_build::setup();
}
