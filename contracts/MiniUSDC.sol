// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title MiniUSDC: the part of USDC (FiatToken v2) that x402 `exact` settlement touches, for local chains.
/// @notice The server verifies payments against the real networks' EIP-712 domains (chain ids 84532 and
/// 324705682, the real USDC addresses as verifyingContract). So the local chain does not deploy this
/// contract: it writes the runtime code at each real USDC address (`hardhat_setCode`) and calls
/// `initialize(name, version, domainChainId)` once. The domain uses that stored chain id, not
/// `block.chainid`, which lets one in-process chain host both the Base and the SKALE token.
/// There is no constructor and there are no immutables, since `setCode` would skip them.
/// Revert strings are FiatToken's, so settlement maps them the way it would on a real chain.
contract MiniUSDC {
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );
    /// secp256k1 order / 2: FiatToken refuses high-s (malleable) signatures.
    uint256 private constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    string public name;
    string public version;
    string public constant symbol = "USDC";
    uint8 public constant decimals = 6;
    uint256 public domainChainId;
    /// The account that initialized the token; the only one allowed to mint.
    address public minter;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(bytes32 => bool)) public authorizationState;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);

    function initialize(string calldata name_, string calldata version_, uint256 domainChainId_) external {
        require(minter == address(0), "MiniUSDC: already initialized");
        minter = msg.sender;
        name = name_;
        version = version_;
        domainChainId = domainChainId_;
    }

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256(bytes(name)), keccak256(bytes(version)), domainChainId, address(this))
        );
    }

    /// Test faucet.
    function mint(address to, uint256 value) external {
        require(msg.sender == minter, "MiniUSDC: caller is not the minter");
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        require(block.timestamp > validAfter, "FiatTokenV2: authorization is not yet valid");
        require(block.timestamp < validBefore, "FiatTokenV2: authorization is expired");
        require(!authorizationState[from][nonce], "FiatTokenV2: authorization is used or canceled");
        bytes32 digest = keccak256(
            abi.encodePacked(
                "\x19\x01",
                DOMAIN_SEPARATOR(),
                keccak256(abi.encode(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce))
            )
        );
        require(uint256(s) <= HALF_ORDER, "ECRecover: invalid signature 's' value");
        address signer = ecrecover(digest, v, r, s);
        require(signer != address(0) && signer == from, "FiatTokenV2: invalid signature");
        authorizationState[from][nonce] = true;
        emit AuthorizationUsed(from, nonce);
        require(balanceOf[from] >= value, "ERC20: transfer amount exceeds balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
